// What the cluster needs of the messaging between its tasks: an interface the core holds and
// libhxrt_mpi.so implements on MPI (cluster/mpi/), opened only when the process is a task of
// a cluster, so that libhxrt itself neither links nor loads MPI.
//
// A task is an MPI rank. Every wait has a deadline: a task that died or stopped answering
// makes the wait end, with the ranks that had not answered, never hang.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace hxrt::detail {

class Transport {
 public:
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
};

// libhxrt_mpi.so's one entry point (`hxrt_mpi_open`): MPI opened (initialised, unless the
// program did it first), or nullptr with `*error` saying why.
using OpenTransportFunction = Transport* (*)(std::string* error);
constexpr const char* kOpenTransportSymbol = "hxrt_mpi_open";

}  // namespace hxrt::detail
