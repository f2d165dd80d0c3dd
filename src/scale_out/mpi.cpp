// SPDX-License-Identifier: Apache-2.0
#include "anycl/mpi.hpp"

#include <climits>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "anycl/device_group.hpp"
#include "anycl/device_selector.hpp"

// Open MPI's extensions header says whether the library was built CUDA-aware.
#if defined(__has_include)
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#define ANYCL_MPI_HAS_EXT_HEADER 1
#endif
#endif

namespace anycl::mpi {

void require_initialized(const char* what) {
  int init = 0;
  int fin = 0;
  MPI_Initialized(&init);
  MPI_Finalized(&fin);
  if (init == 0 || fin != 0)
    throw error(std::string(what) + ": MPI is not initialised (call MPI_Init first)" +
                (fin != 0 ? " or already finalised" : ""));
}

void check(int rc, const char* call) {
  if (rc == MPI_SUCCESS) return;
  char msg[MPI_MAX_ERROR_STRING] = {};
  int len = 0;
  MPI_Error_string(rc, msg, &len);
  throw error(std::string(call) + " failed: " + std::string(msg, static_cast<std::size_t>(len)));
}

int node_local_rank(MPI_Comm comm) {
  require_initialized("anycl::mpi::node_local_rank");
  MPI_Comm node = MPI_COMM_NULL;
  check(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node),
        "MPI_Comm_split_type");
  int local = 0;
  const int rc = MPI_Comm_rank(node, &local);
  MPI_Comm_free(&node);
  check(rc, "MPI_Comm_rank");
  return local;
}

device select_device(MPI_Comm comm, std::string_view spec, bool log) {
  require_initialized("anycl::mpi::select_device");
  const int local = node_local_rank(comm);
  std::string s(spec);
  if (s.empty()) {
    const char* env = std::getenv("ANYCL_DEVICE");
    s = env != nullptr && *env != '\0' ? env : "gpu,accelerator,cpu,all";
  }
  const std::vector<device> devices = select_devices(s);  // throws device_not_found if empty
  const std::size_t index = static_cast<std::size_t>(local) % devices.size();
  const char* env_log = std::getenv("ANYCL_MPI_LOG");
  if (log || (env_log != nullptr && std::string_view(env_log) == "1")) {
    int rank = 0;
    check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
    char host[MPI_MAX_PROCESSOR_NAME] = {};
    int len = 0;
    MPI_Get_processor_name(host, &len);
    std::ostringstream line;
    line << "anycl::mpi: rank " << rank << " on "
         << std::string(host, static_cast<std::size_t>(len)) << " (node-local " << local
         << ") -> device " << index << " of " << devices.size() << " matching '" << s
         << "': " << devices[index].name() << '\n';
    std::cerr << line.str() << std::flush;
  }
  return devices[index];
}

namespace detail {

MPI_Op to_mpi(op o) noexcept {
  switch (o) {
    case op::min:
      return MPI_MIN;
    case op::max:
      return MPI_MAX;
    case op::sum:
      break;
  }
  return MPI_SUM;
}

void require_same_size(std::uint64_t n, MPI_Comm comm, const char* what) {
  std::uint64_t lo_hi[2] = {n, ~n};  // min of n and min of ~n (= ~max n) in one call
  check(MPI_Allreduce(MPI_IN_PLACE, lo_hi, 2, MPI_UINT64_T, MPI_MIN, comm), "MPI_Allreduce");
  const std::uint64_t hi = ~lo_hi[1];
  if (lo_hi[0] != hi)
    throw std::invalid_argument(std::string(what) + ": ranks pass arrays of different sizes (" +
                                std::to_string(lo_hi[0]) + " to " + std::to_string(hi) + ")");
  if (n > static_cast<std::uint64_t>(INT32_MAX))
    throw std::invalid_argument(std::string(what) + ": more than 2^31-1 elements");
}

void require_root_and_queues(int root, bool has_queue, MPI_Comm comm, const char* what) {
  // Minimum of root, of ~root (= ~max root) and of has_queue in one call.
  const auto r = static_cast<std::uint64_t>(static_cast<std::int64_t>(root));
  std::uint64_t v[3] = {r, ~r, has_queue ? 1u : 0u};
  check(MPI_Allreduce(MPI_IN_PLACE, v, 3, MPI_UINT64_T, MPI_MIN, comm), "MPI_Allreduce");
  if (v[2] == 0)
    throw std::invalid_argument(std::string(what) +
                                ": a rank passes an array without a command queue "
                                "(default-constructed)");
  const auto lo = static_cast<std::int64_t>(v[0]);
  const auto hi = static_cast<std::int64_t>(~v[1]);
  if (lo != hi) throw std::invalid_argument(std::string(what) + ": ranks pass different roots");
  int size = 0;
  check(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  if (root < 0 || root >= size)
    throw std::invalid_argument(std::string(what) + ": root " + std::to_string(root) +
                                " is not a rank of the communicator (size " + std::to_string(size) +
                                ")");
}

std::vector<int> displacements(const std::vector<int>& counts, const char* what) {
  std::vector<int> displs(counts.size());
  std::int64_t at = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    if (counts[r] < 0)
      throw std::invalid_argument(std::string(what) + ": negative count for rank " +
                                  std::to_string(r));
    if (at > INT_MAX - std::int64_t{counts[r]})
      throw std::invalid_argument(std::string(what) +
                                  ": more than 2^31-1 elements in all (MPI counts are int)");
    displs[r] = static_cast<int>(at);
    at += counts[r];
  }
  return displs;
}

std::vector<int> gather_counts(std::uint64_t n, MPI_Comm comm, const char* what) {
  int size = 0;
  check(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  std::vector<std::uint64_t> all(static_cast<std::size_t>(size));
  check(MPI_Allgather(&n, 1, MPI_UINT64_T, all.data(), 1, MPI_UINT64_T, comm), "MPI_Allgather");
  std::vector<int> counts(all.size());
  for (std::size_t r = 0; r < all.size(); ++r) {
    if (all[r] > static_cast<std::uint64_t>(INT_MAX))
      throw std::invalid_argument(std::string(what) + ": rank " + std::to_string(r) + " has " +
                                  std::to_string(all[r]) +
                                  " elements, more than 2^31-1 (MPI counts are int)");
    counts[r] = static_cast<int>(all[r]);
  }
  displacements(counts, what);  // throws on every rank alike when the total is too large
  return counts;
}

std::vector<int> scatter_counts(std::uint64_t n, const std::vector<std::size_t>& counts, int root,
                                MPI_Comm comm, const char* what) {
  int rank = 0;
  int size = 0;
  check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  check(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  const auto ranks = static_cast<std::size_t>(size);
  // Root's verdict: an empty message and the counts, or the message. Sent as one int64 vector:
  // [message length, counts..., message bytes].
  std::vector<std::int64_t> msg(1 + ranks, 0);
  if (rank == root) {
    std::string bad;
    std::vector<std::uint64_t> c;
    if (counts.empty()) {
      for (const index_range& part : split_range(n, std::vector<double>(ranks, 1.0)))
        c.push_back(part.size());
    } else if (counts.size() != ranks) {
      bad = std::to_string(counts.size()) + " counts for " + std::to_string(size) + " ranks";
    } else {
      c.assign(counts.begin(), counts.end());
      std::uint64_t sum = 0;
      for (std::uint64_t x : c) sum += x;
      if (sum != n)
        bad = "the counts add up to " + std::to_string(sum) + ", root's array has " +
              std::to_string(n) + " elements";
    }
    if (bad.empty() && n > static_cast<std::uint64_t>(INT_MAX))
      bad = "root's array has more than 2^31-1 elements (MPI counts are int)";
    if (bad.empty()) {
      for (std::size_t r = 0; r < ranks; ++r) msg[1 + r] = static_cast<std::int64_t>(c[r]);
    } else {
      msg[0] = static_cast<std::int64_t>(bad.size());
      msg.insert(msg.end(), bad.begin(), bad.end());
    }
  }
  std::int64_t len = msg[0];
  check(MPI_Bcast(&len, 1, MPI_INT64_T, root, comm), "MPI_Bcast");
  msg.resize(1 + ranks + static_cast<std::size_t>(len));
  check(MPI_Bcast(msg.data(), static_cast<int>(msg.size()), MPI_INT64_T, root, comm), "MPI_Bcast");
  if (len != 0) {
    std::string bad;
    for (std::size_t i = 1 + ranks; i < msg.size(); ++i) bad += static_cast<char>(msg[i]);
    throw std::invalid_argument(std::string(what) + ": " + bad);
  }
  std::vector<int> out(ranks);
  for (std::size_t r = 0; r < ranks; ++r) out[r] = static_cast<int>(msg[1 + r]);
  return out;
}

bool maps(const command_queue& q) {
  switch (requested_staging()) {
    case staging::map:
      return true;
    case staging::copy:
      return false;
    case staging::automatic:
      break;
  }
  return q.device().host_unified_memory();
}

}  // namespace detail

staging requested_staging() {
  const char* env = std::getenv("ANYCL_MPI_STAGING");
  const std::string_view v = env != nullptr ? env : "";
  if (v.empty() || v == "auto") return staging::automatic;
  if (v == "map") return staging::map;
  if (v == "copy") return staging::copy;
  throw std::invalid_argument("ANYCL_MPI_STAGING is '" + std::string(v) +
                              "', expected auto, map or copy");
}

bool maps_buffers(const command_queue& q) { return detail::maps(q); }

transfer_report transfer_info() {
  require_initialized("anycl::mpi::transfer_info");
  transfer_report t;
  char lib[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int len = 0;
  check(MPI_Get_library_version(lib, &len), "MPI_Get_library_version");
  lib[MPI_MAX_LIBRARY_VERSION_STRING - 1] = '\0';
  t.library = lib;  // up to the NUL, which some libraries count in `len`
  t.library = t.library.substr(0, t.library.find_first_of("\r\n"));
#ifdef ANYCL_MPI_HAS_EXT_HEADER
  t.extension_header = true;
#endif
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  t.cuda_aware_build = true;
#endif
#if defined(OMPI_HAVE_MPI_EXT_CUDA) && OMPI_HAVE_MPI_EXT_CUDA
  t.cuda_aware_runtime = MPIX_Query_cuda_support() == 1;
#endif
  t.requested = requested_staging();
  return t;
}

bool gpu_aware() { return transfer_info().cuda_aware_runtime; }

}  // namespace anycl::mpi
