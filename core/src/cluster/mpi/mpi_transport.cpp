// The Transport on MPI (cluster/transport.hpp), built into libhxrt_mpi.so against Debian's Open
// MPI. MPI is initialised here unless the program did it first; errors are returned on this
// module's own communicator (a duplicate of MPI_COMM_WORLD, or of the program's own communicator),
// never aborted on.
#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cluster/polling.hpp"
#include "cluster/transport.hpp"

namespace hxrt::detail {
namespace {

// The greeting on the world (MPI_COMM_WORLD or the program's), at a tag high enough to stay clear
// of a program's own (MPI guarantees tags up to 32767); then the device tables, on the runtime's
// communicator.
constexpr int kJoinTag = 32000;
constexpr int kExchangeTag = 1;
// The tag that making a group's communicator uses (below the cluster's first executable tag).
constexpr int kGroupTag = 3;

std::string mpi_error_text(int code) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) {
    return "MPI error " + std::to_string(code);
  }
  return std::string(text, static_cast<size_t>(length));
}

void check(int code, const char* call) {
  if (code != MPI_SUCCESS) {
    throw std::runtime_error(std::string(call) + ": " + mpi_error_text(code));
  }
}

// Whether a peer died or stopped answering (Transport::peer_lost).
std::atomic<bool> g_peer_lost{false};

// Finalises MPI at exit when this module initialised it (Open MPI's launcher reports a task
// that exits without MPI_Finalize as failed), unless a peer was lost: Open MPI's MPI_Finalize
// can then wait for it for ever (it did, under mpirun --enable-recovery, on a loaded machine).
void finalize_at_exit() {
  if (g_peer_lost.load()) return;
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

// Sets MPI_ERRORS_RETURN on a communicator of the program's while it lives, then gives the
// program its own handler back.
class ErrorsReturned {
 public:
  explicit ErrorsReturned(MPI_Comm comm) : comm_(comm) {
    check(MPI_Comm_get_errhandler(comm_, &program_handler_), "MPI_Comm_get_errhandler");
    check(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
  }
  ~ErrorsReturned() {
    MPI_Comm_set_errhandler(comm_, program_handler_);
    MPI_Errhandler_free(&program_handler_);
  }
  ErrorsReturned(const ErrorsReturned&) = delete;
  ErrorsReturned& operator=(const ErrorsReturned&) = delete;

 private:
  MPI_Comm comm_;
  MPI_Errhandler program_handler_;
};

// MPI counts are ints: a message over this goes as several, in order at one tag.
constexpr size_t kMostPerMessage = size_t{1} << 30;

class MpiTransfer : public Transfer {
 public:
  MpiTransfer(bool receive, size_t bytes) : receive_(receive), bytes_(bytes) {}
  ~MpiTransfer() override {
    for (MPI_Request& request : requests_) {
      if (request == MPI_REQUEST_NULL) continue;
      if (receive_) MPI_Cancel(&request);
      MPI_Request_free(&request);
    }
  }
  MpiTransfer(const MpiTransfer&) = delete;
  MpiTransfer& operator=(const MpiTransfer&) = delete;

  std::vector<MPI_Request>& requests() { return requests_; }

  bool done() override {
    for (size_t i = 0; i < requests_.size(); ++i) {
      if (requests_[i] == MPI_REQUEST_NULL) continue;
      int finished = 0;
      MPI_Status status;
      const int code = MPI_Test(&requests_[i], &finished, &status);
      if (code != MPI_SUCCESS) {
        throw std::runtime_error("MPI_Test: " + mpi_error_text(code));
      }
      if (!finished) return false;
      if (receive_) check_count(status, i);
    }
    return true;
  }

 private:
  // A receive takes a message of at most its size; a shorter one is as wrong.
  void check_count(const MPI_Status& status, size_t chunk) const {
    int count = 0;
    MPI_Get_count(&status, MPI_BYTE, &count);
    const size_t expected = std::min(kMostPerMessage, bytes_ - chunk * kMostPerMessage);
    if (static_cast<size_t>(count) != expected) {
      throw std::runtime_error("a message of " + std::to_string(count) + " bytes came where " +
                               std::to_string(expected) + " were expected");
    }
  }

  bool receive_;
  size_t bytes_;
  std::vector<MPI_Request> requests_;
};

MPI_Datatype mpi_type(DType dtype) {
  switch (dtype) {
    case DType::kF32: return MPI_FLOAT;
    case DType::kF64: return MPI_DOUBLE;
    case DType::kI8: return MPI_INT8_T;
    case DType::kU8: return MPI_UINT8_T;
    case DType::kI16: return MPI_INT16_T;
    case DType::kU16: return MPI_UINT16_T;
    case DType::kI32: return MPI_INT32_T;
    case DType::kU32: return MPI_UINT32_T;
    case DType::kI64: return MPI_INT64_T;
    case DType::kU64: return MPI_UINT64_T;
    default:
      // No dtype_name: the module calls nothing of libhxrt's, which a Python extension
      // loads where this module cannot see it.
      throw std::runtime_error("MPI cannot reduce elements of dtype " +
                               std::to_string(static_cast<int>(dtype)));
  }
}

MPI_Op mpi_op(ReduceOp op) {
  switch (op) {
    case ReduceOp::kSum: return MPI_SUM;
    case ReduceOp::kMax: return MPI_MAX;
    case ReduceOp::kMin: return MPI_MIN;
  }
  return MPI_SUM;
}

// An allgather keeps its counts and displacements until it completes, as MPI reads them.
class AllGatherTransfer final : public MpiTransfer {
 public:
  AllGatherTransfer() : MpiTransfer(false, 0) {}
  std::vector<int> counts;
  std::vector<int> displacements;
};

// `bytes` as one of MPI's counts; std::runtime_error past 2^31 - 1.
int as_count(size_t bytes) {
  if (bytes > static_cast<size_t>(INT32_MAX)) {
    throw std::runtime_error(std::to_string(bytes) + " bytes are more than one collective of "
                             "MPI's counts moves (2^31 - 1)");
  }
  return static_cast<int>(bytes);
}

class MpiTransport final : public Transport {
 public:
  // The cluster's tasks are `world`'s processes: MPI_COMM_WORLD's, or the program's own
  // communicator's.
  explicit MpiTransport(MPI_Comm world) : world_(world) {
    check(MPI_Comm_rank(world_, &rank_), "MPI_Comm_rank");
    check(MPI_Comm_size(world_, &size_), "MPI_Comm_size");
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int length = 0;
    MPI_Get_library_version(version, &length);
    library_.assign(version, static_cast<size_t>(length));
    const size_t line_end = library_.find_first_of(",\n");
    if (line_end != std::string::npos) library_.resize(line_end);
  }
  ~MpiTransport() override {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (finalized) return;
    for (auto& [group, comm] : groups_) MPI_Comm_free(&comm);
    if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
  }

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  std::string library() const override { return library_; }

  // A duplicate of the world (MPI_COMM_WORLD, or the program's communicator) keeps the
  // runtime's messages apart from the program's; but making it is collective, and would wait
  // forever for a rank that never joins. So the ranks first greet each other on the world,
  // point to point at a tag of their own, which tells who is missing within the timeout;
  // then, all being there, they duplicate it.
  std::vector<int> join(std::chrono::milliseconds timeout) override {
    if (comm_ != MPI_COMM_NULL) return {};  // joined for an earlier runtime of the process
    std::vector<std::optional<std::string>> greetings;
    {
      const ErrorsReturned returned(world_);
      greetings = exchange_on(world_, kJoinTag, std::string(), timeout);
    }
    std::vector<int> silent;
    for (int peer = 0; peer < size_; ++peer) {
      if (!greetings[static_cast<size_t>(peer)]) silent.push_back(peer);
    }
    if (!silent.empty()) return silent;
    check(MPI_Comm_dup(world_, &comm_), "MPI_Comm_dup");
    check(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
    return silent;
  }

  std::vector<std::optional<std::string>> exchange(const std::string& message,
                                                   std::chrono::milliseconds timeout) override {
    if (comm_ == MPI_COMM_NULL) throw std::runtime_error("exchange before every rank joined");
    return exchange_on(comm_, kExchangeTag, message, timeout);
  }

  std::unique_ptr<Transfer> start_send(int peer, int tag, const void* data,
                                       size_t bytes) override {
    auto transfer = std::make_unique<MpiTransfer>(false, bytes);
    const auto* at = static_cast<const unsigned char*>(data);
    for_each_chunk(bytes, [&](size_t offset, int count) {
      transfer->requests().push_back(MPI_REQUEST_NULL);
      check(MPI_Isend(at + offset, count, MPI_BYTE, peer, tag, joined(),
                      &transfer->requests().back()),
            "MPI_Isend");
    });
    return transfer;
  }

  std::unique_ptr<Transfer> start_receive(int peer, int tag, void* data,
                                          size_t bytes) override {
    auto transfer = std::make_unique<MpiTransfer>(true, bytes);
    auto* at = static_cast<unsigned char*>(data);
    for_each_chunk(bytes, [&](size_t offset, int count) {
      transfer->requests().push_back(MPI_REQUEST_NULL);
      check(MPI_Irecv(at + offset, count, MPI_BYTE, peer, tag, joined(),
                      &transfer->requests().back()),
            "MPI_Irecv");
    });
    return transfer;
  }

  std::optional<Message> take_message(int tag, int peer) override {
    int found = 0;
    MPI_Message handle;
    MPI_Status status;
    check(MPI_Improbe(peer == kAnyRank ? MPI_ANY_SOURCE : peer, tag, joined(), &found, &handle,
                      &status),
          "MPI_Improbe");
    if (!found) return std::nullopt;
    int count = 0;
    check(MPI_Get_count(&status, MPI_BYTE, &count), "MPI_Get_count");
    Message message;
    message.source = status.MPI_SOURCE;
    message.bytes.resize(static_cast<size_t>(count));
    check(MPI_Mrecv(message.bytes.data(), count, MPI_BYTE, &handle, MPI_STATUS_IGNORE),
          "MPI_Mrecv");
    return message;
  }

  std::unique_ptr<Transfer> start_all_reduce(const std::vector<int>& group, DType dtype,
                                             ReduceOp op, void* data, size_t count) override {
    const MPI_Datatype type = mpi_type(dtype);
    const MPI_Comm comm = communicator_of(group);
    auto transfer = std::make_unique<MpiTransfer>(false, 0);
    auto* at = static_cast<unsigned char*>(data);
    int element = 0;
    check(MPI_Type_size(type, &element), "MPI_Type_size");
    // Chunks of at most 2^30 elements: MPI's counts are ints.
    for_each_chunk(count, [&](size_t offset, int chunk) {
      transfer->requests().push_back(MPI_REQUEST_NULL);
      check(MPI_Iallreduce(MPI_IN_PLACE, at + offset * static_cast<size_t>(element), chunk, type,
                           mpi_op(op), comm,
                           &transfer->requests().back()),
            "MPI_Iallreduce");
    });
    return transfer;
  }

  std::unique_ptr<Transfer> start_all_gather(const std::vector<int>& group, const void* data,
                                             size_t bytes, void* gathered,
                                             const std::vector<size_t>& counts) override {
    const MPI_Comm comm = communicator_of(group);
    auto transfer = std::make_unique<AllGatherTransfer>();
    size_t total = 0;
    for (size_t count : counts) {
      transfer->counts.push_back(as_count(count));
      transfer->displacements.push_back(as_count(total));
      total += count;
    }
    as_count(total);
    transfer->requests().push_back(MPI_REQUEST_NULL);
    check(MPI_Iallgatherv(data, as_count(bytes), MPI_BYTE, gathered, transfer->counts.data(),
                          transfer->displacements.data(), MPI_BYTE, comm,
                          &transfer->requests().back()),
          "MPI_Iallgatherv");
    return transfer;
  }

  std::unique_ptr<Transfer> start_broadcast(const std::vector<int>& group, int root, void* data,
                                            size_t bytes) override {
    const MPI_Comm comm = communicator_of(group);
    const auto found = std::find(group.begin(), group.end(), root);
    if (found == group.end()) throw std::runtime_error("a broadcast's root outside its group");
    auto transfer = std::make_unique<MpiTransfer>(false, 0);
    transfer->requests().push_back(MPI_REQUEST_NULL);
    check(MPI_Ibcast(data, as_count(bytes), MPI_BYTE, static_cast<int>(found - group.begin()),
                     comm, &transfer->requests().back()),
          "MPI_Ibcast");
    return transfer;
  }

  void peer_lost(int) override { g_peer_lost.store(true); }

  int largest_tag() const override {
    void* value = nullptr;
    int found = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &value, &found);
    return found ? *static_cast<int*>(value) : 32767;
  }

 private:
  // The communicator of `group`: the transport's own for every rank, else one made at its
  // first use, kept.
  MPI_Comm communicator_of(const std::vector<int>& group) {
    if (static_cast<int>(group.size()) == size_) return joined();
    std::lock_guard<std::mutex> lock(groups_mutex_);
    auto found = groups_.find(group);
    if (found != groups_.end()) return found->second;
    MPI_Group whole;
    MPI_Group part;
    check(MPI_Comm_group(joined(), &whole), "MPI_Comm_group");
    check(MPI_Group_incl(whole, static_cast<int>(group.size()), group.data(), &part),
          "MPI_Group_incl");
    MPI_Comm comm = MPI_COMM_NULL;
    const int code = MPI_Comm_create_group(joined(), part, kGroupTag, &comm);
    MPI_Group_free(&part);
    MPI_Group_free(&whole);
    check(code, "MPI_Comm_create_group");
    check(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
    return groups_.emplace(group, comm).first->second;
  }

  MPI_Comm joined() const {
    if (comm_ == MPI_COMM_NULL) throw std::runtime_error("a message before every rank joined");
    return comm_;
  }

  // Calls `post(offset, count)` for each piece of at most kMostPerMessage of `bytes`; once
  // for none.
  template <class Post>
  static void for_each_chunk(size_t bytes, Post post) {
    size_t offset = 0;
    do {
      const size_t count = std::min(kMostPerMessage, bytes - offset);
      post(offset, static_cast<int>(count));
      offset += count;
    } while (offset < bytes);
  }

  std::vector<std::optional<std::string>> exchange_on(MPI_Comm comm, int tag,
                                                      const std::string& message,
                                                      std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    if (message.size() > static_cast<size_t>(INT32_MAX)) {
      throw std::runtime_error("a message of " + std::to_string(message.size()) +
                               " bytes is over MPI's count of 2^31 - 1");
    }
    std::vector<MPI_Request> sends;
    for (int peer = 0; peer < size_; ++peer) {
      if (peer == rank_) continue;
      sends.emplace_back();
      check(MPI_Isend(message.data(), static_cast<int>(message.size()), MPI_BYTE, peer, tag,
                      comm, &sends.back()),
            "MPI_Isend");
    }
    std::vector<std::optional<std::string>> received(static_cast<size_t>(size_));
    received[static_cast<size_t>(rank_)] = message;
    int missing = size_ - 1;
    Polling polling;
    while (missing > 0 && std::chrono::steady_clock::now() < deadline) {
      bool progressed = false;
      for (int peer = 0; peer < size_; ++peer) {
        if (received[static_cast<size_t>(peer)]) continue;
        int found = 0;
        MPI_Message handle;
        MPI_Status status;
        check(MPI_Improbe(peer, tag, comm, &found, &handle, &status), "MPI_Improbe");
        if (!found) continue;
        int count = 0;
        check(MPI_Get_count(&status, MPI_BYTE, &count), "MPI_Get_count");
        std::string bytes(static_cast<size_t>(count), '\0');
        check(MPI_Mrecv(bytes.data(), count, MPI_BYTE, &handle, MPI_STATUS_IGNORE), "MPI_Mrecv");
        received[static_cast<size_t>(peer)] = std::move(bytes);
        --missing;
        progressed = true;
      }
      if (!progressed && missing > 0) polling.pause();
    }
    finish_sends(sends, deadline);
    return received;
  }

  // Sends complete once their peers receive them; one to a peer that never does is
  // cancelled at the deadline, so that nothing of this call is left pending.
  static void finish_sends(std::vector<MPI_Request>& sends,
                           std::chrono::steady_clock::time_point deadline) {
    Polling polling;
    for (MPI_Request& request : sends) {
      int done = 0;
      while (true) {
        check(MPI_Test(&request, &done, MPI_STATUS_IGNORE), "MPI_Test");
        if (done || std::chrono::steady_clock::now() >= deadline) break;
        polling.pause();
      }
      if (!done) {
        MPI_Cancel(&request);
        MPI_Request_free(&request);
      }
    }
  }

  const MPI_Comm world_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  std::mutex groups_mutex_;
  std::map<std::vector<int>, MPI_Comm> groups_;  // guarded by groups_mutex_
  int rank_ = 0;
  int size_ = 1;
  std::string library_;
};

}  // namespace
}  // namespace hxrt::detail

extern "C" __attribute__((visibility("default"))) hxrt::detail::Transport* hxrt_mpi_open(
    std::string* error, const void* communicator) {
  try {
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (communicator != nullptr) {
      if (!initialized) {
        *error = "RuntimeOptions::mpi_communicator names a communicator, but MPI is not "
                 "initialised: initialise MPI (MPI_Init_thread with MPI_THREAD_MULTIPLE) and "
                 "make the communicator first";
        return nullptr;
      }
      return new hxrt::detail::MpiTransport(*static_cast<const MPI_Comm*>(communicator));
    }
    if (!initialized) {
      // Open MPI's default algorithm for the nonblocking allreduce that AllReduce across tasks
      // uses measured 0.65x of its blocking MPI_Allreduce on 64 MiB between two ranks, its ring
      // 1.0x: the ring, unless the environment chose (other MPIs ignore the variable).
      setenv("OMPI_MCA_coll_libnbc_iallreduce_algorithm", "1", 0);
      int provided = 0;
      // Several threads of the runtime may call MPI at once (the executor's, the caller's).
      hxrt::detail::check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_MULTIPLE, &provided),
                          "MPI_Init_thread");
      std::atexit(hxrt::detail::finalize_at_exit);
      if (provided < MPI_THREAD_MULTIPLE) {
        *error = "this MPI gives no MPI_THREAD_MULTIPLE (it gave level " +
                 std::to_string(provided) + "), which the runtime's threads need";
        return nullptr;
      }
    }
    return new hxrt::detail::MpiTransport(MPI_COMM_WORLD);
  } catch (const std::exception& e) {
    *error = e.what();
    return nullptr;
  }
}
