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
}  // namespace detail

/// Replaces `a` on every rank of `comm` with the element-wise `o` over all ranks' arrays (as
/// MPI_Allreduce), staging through host memory: each rank reads its array, MPI reduces, each rank
/// writes the result back. All ranks must pass arrays of the same size (std::invalid_argument on
/// every rank otherwise). Float sums are in MPI's order, so they may differ from a serial sum by
/// rounding. Collective over `comm`.
template <typename T>
void allreduce(array<T>& a, op o, MPI_Comm comm) {
  require_initialized("anycl::mpi::allreduce");
  detail::require_same_size(a.size(), comm, "anycl::mpi::allreduce");
  if (a.empty()) return;
  std::vector<T> host = a.to_host();
  check(MPI_Allreduce(MPI_IN_PLACE, host.data(), static_cast<int>(host.size()),
                      detail::datatype<T>(), detail::to_mpi(o), comm),
        "MPI_Allreduce");
  a.set(host);
}

/// Copies `root`'s array into `a` on every other rank of `comm` (as MPI_Bcast), through host
/// memory. All ranks must pass arrays of the same size (std::invalid_argument on every rank
/// otherwise). Collective over `comm`.
template <typename T>
void broadcast(array<T>& a, int root, MPI_Comm comm) {
  require_initialized("anycl::mpi::broadcast");
  detail::require_same_size(a.size(), comm, "anycl::mpi::broadcast");
  if (a.empty()) return;
  int rank = 0;
  check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  std::vector<T> host = rank == root ? a.to_host() : std::vector<T>(a.size());
  check(MPI_Bcast(host.data(), static_cast<int>(host.size()), detail::datatype<T>(), root, comm),
        "MPI_Bcast");
  if (rank != root) a.set(host);
}

}  // namespace anycl::mpi
