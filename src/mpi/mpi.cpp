// SPDX-License-Identifier: Apache-2.0
#include "anycl/mpi.hpp"

#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "anycl/device_selector.hpp"

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

}  // namespace detail
}  // namespace anycl::mpi
