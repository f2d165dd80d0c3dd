// SPDX-License-Identifier: Apache-2.0
// anycl::mpi (optional part, target anycl::mpi): running AnyCL under MPI, the transport HPC
// clusters already use. AnyCL adds no transport of its own; this header maps ranks to devices and
// offers collectives on device arrays. Only anycl::mpi links MPI; the core library never does.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "anycl/array.hpp"
#include "anycl/device.hpp"
#include "anycl/host_view.hpp"

namespace anycl::mpi {

/// Thrown when an MPI call fails (the message names the call and MPI's error string), and when a
/// function here is called before MPI_Init or after MPI_Finalize: both are caller errors that a
/// crash inside MPI would hide.
class error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Throws anycl::mpi::error unless MPI is initialised and not finalised; `what` names the caller.
void require_initialized(const char* what);

/// Throws anycl::mpi::error naming `call` when `rc` is not MPI_SUCCESS. (Communicators default to
/// MPI_ERRORS_ARE_FATAL, so this matters where the user set MPI_ERRORS_RETURN.)
void check(int rc, const char* call);

/// This rank's index among the ranks of `comm` on the same node (shared-memory domain), from
/// MPI_Comm_split_type(MPI_COMM_TYPE_SHARED): ranks on one node get 0, 1, 2, ... so that each can
/// take a different device. Collective over `comm`.
int node_local_rank(MPI_Comm comm);

/// The device this rank should use: of the devices `spec` selects (select_devices grammar), the
/// one at node_local_rank(comm) modulo their count, so ranks on a node spread over the devices and
/// share them round-robin when there are more ranks than devices. An empty `spec` means
/// ANYCL_DEVICE when set, else the default order (GPUs, then accelerators, then CPUs). Throws
/// device_not_found when nothing matches, anycl::mpi::error when MPI is not initialised.
/// When `log` is true, or the environment sets ANYCL_MPI_LOG=1, writes one line per rank to stderr
/// (rank, host, node-local rank, chosen device), to check a job's mapping. Collective over `comm`.
device select_device(MPI_Comm comm, std::string_view spec = {}, bool log = false);

/// The reduction applied by allreduce.
enum class op { sum, min, max };

namespace detail {
/// MPI's datatype for T; a static_assert names the supported types.
template <typename T>
MPI_Datatype datatype() {
  if constexpr (std::is_same_v<T, float>)
    return MPI_FLOAT;
  else if constexpr (std::is_same_v<T, double>)
    return MPI_DOUBLE;
  else if constexpr (std::is_same_v<T, std::int8_t>)
    return MPI_INT8_T;
  else if constexpr (std::is_same_v<T, std::uint8_t>)
    return MPI_UINT8_T;
  else if constexpr (std::is_same_v<T, std::int16_t>)
    return MPI_INT16_T;
  else if constexpr (std::is_same_v<T, std::uint16_t>)
    return MPI_UINT16_T;
  else if constexpr (std::is_same_v<T, std::int32_t>)
    return MPI_INT32_T;
  else if constexpr (std::is_same_v<T, std::uint32_t>)
    return MPI_UINT32_T;
  else if constexpr (std::is_same_v<T, std::int64_t>)
    return MPI_INT64_T;
  else if constexpr (std::is_same_v<T, std::uint64_t>)
    return MPI_UINT64_T;
  else
    static_assert(!sizeof(T),
                  "anycl::mpi: element type must be float, double or a fixed-width integer");
}
MPI_Op to_mpi(op o) noexcept;
/// Throws std::invalid_argument on every rank unless all ranks of `comm` pass the same `n`
/// (one collective), so that a mismatch is an exception everywhere instead of a hang or corruption.
void require_same_size(std::uint64_t n, MPI_Comm comm, const char* what);
/// One collective that throws std::invalid_argument on every rank unless all ranks pass the same
/// `root`, it names a rank of `comm`, and every rank's array has a command queue (`has_queue`).
void require_root_and_queues(int root, bool has_queue, MPI_Comm comm, const char* what);
/// Every rank's element count (one MPI_Allgather), as MPI's int counts; throws
/// std::invalid_argument on every rank when a count or their total exceeds 2^31-1.
std::vector<int> gather_counts(std::uint64_t n, MPI_Comm comm, const char* what);
/// Exclusive prefix sums of `counts` (MPI's displacements); std::invalid_argument when the total
/// exceeds 2^31-1 or a count is negative.
std::vector<int> displacements(const std::vector<int>& counts, const char* what);
/// The counts scatter sends: on `root`, `counts` (one per rank, summing to `n`) or, when empty,
/// split_range's equal shares of `n`; root's verdict and counts reach every rank (MPI_Bcast), so a
/// bad list throws std::invalid_argument, with root's message, on every rank.
std::vector<int> scatter_counts(std::uint64_t n, const std::vector<std::size_t>& counts, int root,
                                MPI_Comm comm, const char* what);
/// Whether transfers for arrays on `q` map the buffer (true) or copy through a std::vector.
bool maps(const command_queue& q);

/// A host pointer to an array's elements for the length of one MPI call: the mapped buffer on the
/// map path, a copy on the copy path (anycl::host_view). `read`: MPI reads the elements; `write`:
/// MPI writes them (close() makes them the array's); `read_write`: both. Empty arrays, and `use`
/// false (a rank whose buffer MPI ignores), give an empty view (nullptr).
template <typename T>
host_view<T> host_elements(const array<T>& a, map_access access, bool use = true) {
  if (!use || !a.core().valid() || a.empty()) return host_view<T>();
  return host_view<T>(a, access, maps(a.queue()));
}
}  // namespace detail

/// How collectives move an array's elements between the device and MPI. OpenCL buffers are
/// handles, not addresses: MPI can only be given host memory. Where the device shares host memory
/// (CPU devices, integrated GPUs: CL_DEVICE_HOST_UNIFIED_MEMORY) mapping the buffer gives MPI the
/// elements without a copy; elsewhere the driver would copy to map anyway, so a plain read into a
/// std::vector is as good and is used.
enum class staging {
  automatic,  ///< map on host-unified devices, copy elsewhere (the default)
  map,        ///< always map (clEnqueueMapBuffer) and give MPI the mapped pointer
  copy        ///< always read into / write from a host std::vector
};

/// The staging the environment asks for: ANYCL_MPI_STAGING=auto|map|copy (unset or empty: auto),
/// read at every collective, so tests can run the same checks under each. Throws
/// std::invalid_argument naming the value and listing the valid ones.
staging requested_staging();

/// What the MPI library offers for device memory, and what AnyCL does with it.
/// GPU-aware ("CUDA-aware", ROCm-aware) MPI accepts CUDA or HIP device pointers. An OpenCL
/// cl_mem is not such a pointer, so AnyCL never passes device memory to MPI whatever this says:
/// it is reported so that a job log shows the library's capabilities (e.g. for code that mixes
/// AnyCL with CUDA), and because OpenCL SVM pointers could use it in future. The zero-copy path
/// AnyCL does take is mapping on host-unified devices (see staging).
struct transfer_report {
  std::string library;                     ///< MPI_Get_library_version, first line
  bool extension_header = false;           ///< <mpi-ext.h> was found at build time (Open MPI)
  bool cuda_aware_build = false;           ///< MPIX_CUDA_AWARE_SUPPORT was 1 at build time
  bool cuda_aware_runtime = false;         ///< MPIX_Query_cuda_support() says yes now
  staging requested = staging::automatic;  ///< ANYCL_MPI_STAGING (throws as requested_staging)
};

/// The transfer report for this process; needs MPI to be initialised (anycl::mpi::error).
transfer_report transfer_info();

/// True when the MPI library says at run time that it accepts CUDA device pointers
/// (transfer_info().cuda_aware_runtime). It does not make OpenCL buffers usable by MPI.
bool gpu_aware();

/// Whether collectives on arrays of `q`'s device map the buffer (true) or copy (false) under the
/// current ANYCL_MPI_STAGING; auto maps when the device is a CPU or reports
/// CL_DEVICE_HOST_UNIFIED_MEMORY. Non-contiguous views are always copied.
bool maps_buffers(const command_queue& q);

/// Replaces `a` on every rank of `comm` with the element-wise `o` over all ranks' arrays (as
/// MPI_Allreduce, in place on the host elements: mapped or staged, see staging). All ranks must
/// pass arrays of the same size (std::invalid_argument on every rank otherwise). Float sums are in
/// MPI's order, so they may differ from a serial sum by rounding. Collective over `comm`.
template <typename T>
void allreduce(array<T>& a, op o, MPI_Comm comm) {
  require_initialized("anycl::mpi::allreduce");
  requested_staging();  // a bad ANYCL_MPI_STAGING throws on every rank, before any transfer
  detail::require_same_size(a.size(), comm, "anycl::mpi::allreduce");
  if (a.empty()) return;
  auto host = detail::host_elements(a, map_access::read_write);
  check(MPI_Allreduce(MPI_IN_PLACE, host.data(), static_cast<int>(a.size()), detail::datatype<T>(),
                      detail::to_mpi(o), comm),
        "MPI_Allreduce");
  host.close();
}

/// Copies `root`'s array into `a` on every other rank of `comm` (as MPI_Bcast). All ranks must
/// pass arrays of the same size and the same root (std::invalid_argument on every rank
/// otherwise). Collective over `comm`.
template <typename T>
void broadcast(array<T>& a, int root, MPI_Comm comm) {
  require_initialized("anycl::mpi::broadcast");
  requested_staging();  // a bad ANYCL_MPI_STAGING throws on every rank, before any transfer
  detail::require_same_size(a.size(), comm, "anycl::mpi::broadcast");
  detail::require_root_and_queues(root, true, comm, "anycl::mpi::broadcast");
  if (a.empty()) return;
  int rank = 0;
  check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  auto host = detail::host_elements(a, rank == root ? map_access::read : map_access::write);
  check(MPI_Bcast(host.data(), static_cast<int>(a.size()), detail::datatype<T>(), root, comm),
        "MPI_Bcast");
  host.close();
}

/// Every rank's `mine` concatenated in rank order, as a new one-dimensional array on `mine`'s
/// queue on every rank (as MPI_Allgatherv). Ranks may pass different sizes, 0 included; arrays of
/// any shape contribute their elements in row-major order. Throws std::invalid_argument on every
/// rank when a rank's array has no queue (default-constructed) or the total exceeds 2^31-1
/// elements. Collective over `comm`.
template <typename T>
array<T> allgather(const array<T>& mine, MPI_Comm comm) {
  const char* what = "anycl::mpi::allgather";
  require_initialized(what);
  requested_staging();  // a bad ANYCL_MPI_STAGING throws on every rank, before any transfer
  detail::require_root_and_queues(0, mine.core().valid(), comm, what);
  const std::vector<int> counts = detail::gather_counts(mine.size(), comm, what);
  const std::vector<int> displs = detail::displacements(counts, what);
  const auto total =
      static_cast<std::size_t>(displs.back()) + static_cast<std::size_t>(counts.back());
  array<T> all(mine.queue(), anycl::shape(total));
  auto src = detail::host_elements(mine, map_access::read);
  auto dst = detail::host_elements(all, map_access::write);
  check(MPI_Allgatherv(src.data(), static_cast<int>(mine.size()), detail::datatype<T>(), dst.data(),
                       counts.data(), displs.data(), detail::datatype<T>(), comm),
        "MPI_Allgatherv");
  dst.close();
  src.close();
  return all;
}

/// Every rank's `mine` concatenated in rank order, as a new one-dimensional array on `mine`'s
/// queue on `root`; the other ranks get an empty array on their queue (as MPI_Gatherv). Sizes may
/// differ. Throws std::invalid_argument on every rank for a root that is not a rank of `comm` or
/// differs between ranks, an array without a queue, or a total over 2^31-1 elements. Collective.
template <typename T>
array<T> gather(const array<T>& mine, int root, MPI_Comm comm) {
  const char* what = "anycl::mpi::gather";
  require_initialized(what);
  requested_staging();  // a bad ANYCL_MPI_STAGING throws on every rank, before any transfer
  detail::require_root_and_queues(root, mine.core().valid(), comm, what);
  const std::vector<int> counts = detail::gather_counts(mine.size(), comm, what);
  const std::vector<int> displs = detail::displacements(counts, what);
  int rank = 0;
  check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  const std::size_t total = rank == root ? static_cast<std::size_t>(displs.back()) +
                                               static_cast<std::size_t>(counts.back())
                                         : 0;
  array<T> all(mine.queue(), anycl::shape(total));
  auto src = detail::host_elements(mine, map_access::read);
  auto dst = detail::host_elements(all, map_access::write);
  check(MPI_Gatherv(src.data(), static_cast<int>(mine.size()), detail::datatype<T>(), dst.data(),
                    counts.data(), displs.data(), detail::datatype<T>(), root, comm),
        "MPI_Gatherv");
  dst.close();
  src.close();
  return all;
}

/// Splits `root`'s `from_root` among the ranks of `comm` in rank order (as MPI_Scatterv): rank r
/// gets a new one-dimensional array on its `from_root`'s queue with its share. On the other ranks
/// `from_root` only supplies that queue (its elements are ignored; an empty array will do). The
/// shares are `counts` (one per rank, summing to root's size; read on root only) or, when empty,
/// split_range's equal shares. Throws std::invalid_argument on every rank for a bad root, an array
/// without a queue, a bad counts list (root's message) or more than 2^31-1 elements. Collective.
template <typename T>
array<T> scatter(const array<T>& from_root, int root, MPI_Comm comm,
                 const std::vector<std::size_t>& counts = {}) {
  const char* what = "anycl::mpi::scatter";
  require_initialized(what);
  requested_staging();  // a bad ANYCL_MPI_STAGING throws on every rank, before any transfer
  detail::require_root_and_queues(root, from_root.core().valid(), comm, what);
  const std::vector<int> share = detail::scatter_counts(from_root.size(), counts, root, comm, what);
  const std::vector<int> displs = detail::displacements(share, what);
  int rank = 0;
  check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  array<T> part(from_root.queue(),
                anycl::shape(static_cast<std::size_t>(share[static_cast<std::size_t>(rank)])));
  auto src = detail::host_elements(from_root, map_access::read, rank == root);
  auto dst = detail::host_elements(part, map_access::write);
  check(MPI_Scatterv(src.data(), share.data(), displs.data(), detail::datatype<T>(), dst.data(),
                     static_cast<int>(part.size()), detail::datatype<T>(), root, comm),
        "MPI_Scatterv");
  dst.close();
  src.close();
  return part;
}

}  // namespace anycl::mpi
