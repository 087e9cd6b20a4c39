// What the cluster needs of the messaging between its tasks: an interface the core holds and
// libhxrt_mpi.so implements on MPI (cluster/mpi/), opened only when the process is a task of
// a cluster, so that libhxrt itself neither links nor loads MPI.
//
// A task is an MPI rank. Every wait has a deadline: a task that died or stopped answering
// makes the wait end, with the ranks that had not answered, never hang.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "hxrt/dtype.hpp"

namespace hxrt::detail {

// One message on its way (Transport::start_send, start_receive).
class Transfer {
 public:
  // One not done is given up: a receive is cancelled; a send is left to MPI, whose buffer
  // must then stay alive as long as the process (a peer may still take it).
  virtual ~Transfer() = default;
  // Whether it has completed, without blocking. Throws std::runtime_error for an MPI error,
  // or a received message of another size than the receive's.
  virtual bool done() = 0;
};

// How Transport::start_all_reduce combines the ranks' elements.
enum class ReduceOp { kSum, kMax, kMin };

// A whole message taken at its tag (Transport::take_message).
struct Message {
  int source = 0;
  std::string bytes;
};

class Transport {
 public:
  static constexpr int kAnyRank = -1;

  virtual ~Transport() = default;

  virtual int rank() const = 0;
  virtual int size() const = 0;
  // The MPI library's own name and version, for the start-up log and hxrt-info.
  virtual std::string library() const = 0;

  // Waits up to `timeout` for every other rank to join, and returns the ranks that did not
  // (empty: all did). Only after every rank joined may the others be called: joining makes
  // the transport's own communicator, which every rank must take part in.
  virtual std::vector<int> join(std::chrono::milliseconds timeout) = 0;
  // Sends `message` to every other rank and receives each one's: the result holds one entry
  // per rank, this one's own message at its rank, nullopt for a rank whose message had not
  // come within `timeout` (its sends are cancelled then too). Throws std::runtime_error for
  // an MPI error, with MPI's text.
  virtual std::vector<std::optional<std::string>> exchange(const std::string& message,
                                                           std::chrono::milliseconds timeout) = 0;

  // Point to point, after join, on the transport's own communicator: `bytes` of `data` to or
  // from `peer` at `tag` (0 to largest_tag()). Messages from one rank at one tag arrive in the
  // order they were sent. Any size: MPI's counts are ints, so a message over 1 GiB goes as
  // several. The memory must stay as it is until the transfer is done.
  virtual std::unique_ptr<Transfer> start_send(int peer, int tag, const void* data,
                                               size_t bytes) = 0;
  virtual std::unique_ptr<Transfer> start_receive(int peer, int tag, void* data,
                                                  size_t bytes) = 0;
  // A message of under 1 GiB that has come at `tag` from `peer` (kAnyRank: from any), taken;
  // nullopt when none has. Never blocks.
  virtual std::optional<Message> take_message(int tag, int peer = kAnyRank) = 0;
  // Says that the task of `rank` died or stopped answering: MPI is then not finalised at the
  // process's exit, where Open MPI's MPI_Finalize can wait for that task for ever.
  virtual void peer_lost(int rank) = 0;
  // The largest tag MPI allows (MPI_TAG_UB: at least 32767).
  virtual int largest_tag() const = 0;

  // The element-wise reduction of `count` elements of `dtype` at `data` over the ranks of
  // `group` (ascending, this one among them), in place: MPI_Iallreduce. Every rank of the group
  // must start its reductions over the group in one order. The first over a group of some but
  // not all ranks makes its communicator, which waits for every rank of the group.
  // std::runtime_error for a dtype MPI cannot reduce (all_reducible).
  virtual std::unique_ptr<Transfer> start_all_reduce(const std::vector<int>& group, DType dtype,
                                                     ReduceOp op, void* data, size_t count) = 0;
  // The bytes each rank of `group` gives (`bytes` at `data` here) one after another in rank
  // order, into `gathered`, which holds `counts[i]` bytes of the group's i-th rank:
  // MPI_Iallgatherv. As start_all_reduce for the order and the communicator.
  // std::runtime_error for more than 2^31 - 1 bytes of a rank or in all.
  virtual std::unique_ptr<Transfer> start_all_gather(const std::vector<int>& group,
                                                     const void* data, size_t bytes,
                                                     void* gathered,
                                                     const std::vector<size_t>& counts) = 0;
  // `bytes` at `data` of rank `root` (of `group`) into `data` of every rank of the group:
  // MPI_Ibcast. As start_all_gather.
  virtual std::unique_ptr<Transfer> start_broadcast(const std::vector<int>& group, int root,
                                                    void* data, size_t bytes) = 0;
};

// Whether MPI reduces elements of `dtype`: its floats of 32 and 64 bits and its integers (MPI
// has no 16-bit floats, and reduces bools only logically).
inline bool all_reducible(DType dtype) {
  switch (dtype) {
    case DType::kF32: case DType::kF64: case DType::kI8: case DType::kU8: case DType::kI16:
    case DType::kU16: case DType::kI32: case DType::kU32: case DType::kI64: case DType::kU64:
      return true;
    default:
      return false;
  }
}

// libhxrt_mpi.so's one entry point (`hxrt_mpi_open`): MPI opened (initialised, unless the
// program did it first), or nullptr with `*error` saying why.
// `communicator`: the address of the program's MPI_Comm to take the ranks of, or nullptr for
// MPI_COMM_WORLD.
using OpenTransportFunction = Transport* (*)(std::string* error, const void* communicator);
constexpr const char* kOpenTransportSymbol = "hxrt_mpi_open";

}  // namespace hxrt::detail
