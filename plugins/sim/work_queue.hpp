// The simulated device's execution engine: each stream is a worker thread that runs the work
// enqueued on it, in order, off the caller's thread. Completion is a count per stream (its
// CompletionLine): the n-th item enqueued is complete once `completed` reaches n, so an event
// is just (line, n) and needs no object of its own in the queue. A cross-device wait is an
// item that blocks its worker until another line reaches a count; waits only name points
// recorded earlier in real time, so they cannot form a cycle.
// Work may fail as it runs: its failure is kept in the stream's current FailureEpoch
// (work_failure.hpp) with its position, and reported by the points recorded after it until a
// clear (stream synchronize) starts a new epoch.
// Each stream has a clock, the device time its events are timed by (events.elapsed_ns): it
// starts at 0 and each item advances it by the item's modelled duration, or by the host time
// the item took when the model gives it none (unmodelled work, cross-device waits). So work
// the model times takes exactly its modelled time, however loaded the host is, and time the
// stream spent idle does not count.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "work_failure.hpp"

namespace hxsim {

// The time on its stream's clock at which one point completed; set once, by the stream.
class CompletionTime {
 public:
  // nullopt until the point has completed.
  std::optional<std::chrono::nanoseconds> get() const {
    const int64_t ns = ns_.load(std::memory_order_acquire);
    if (ns < 0) return std::nullopt;
    return std::chrono::nanoseconds(ns);
  }
  void set(std::chrono::nanoseconds at) { ns_.store(at.count(), std::memory_order_release); }

 private:
  std::atomic<int64_t> ns_{-1};
};

class CompletionLine {
 public:
  // Reserves the next position: the count `completed` must reach for it to be complete.
  uint64_t reserve();
  // Marks the oldest reserved position complete, its item having advanced the clock by
  // `took`, stamps the times waiting for it and wakes every waiter.
  void complete_one(std::chrono::nanoseconds took);
  bool reached(uint64_t position) const;
  void wait_for(uint64_t position) const;
  // The position of the last item reserved so far (0 when none).
  uint64_t last_reserved() const;
  // The last reserved position and the time it completes at (set now if it has).
  std::pair<uint64_t, std::shared_ptr<const CompletionTime>> timed_last_reserved();

 private:
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  uint64_t reserved_ = 0;
  uint64_t completed_ = 0;
  std::chrono::nanoseconds clock_{0};  // when the item at `completed_` completed
  // Times of positions not yet completed, in increasing order of position.
  std::deque<std::pair<uint64_t, std::shared_ptr<CompletionTime>>> untimed_;
};

// A point in one stream's work: complete once its line reaches `position`. A point without a
// line (never recorded, or recorded where all work is synchronous) is complete and never
// fails.
struct Point {
  std::shared_ptr<const CompletionLine> line;
  uint64_t position = 0;
  // The stream's epoch when the point was taken: the failures the point reports.
  std::shared_ptr<const FailureEpoch> failures;
  // When the point completes on its stream's clock; only for points taken by timed_tail.
  std::shared_ptr<const CompletionTime> time;

  bool done() const { return line == nullptr || line->reached(position); }
  void wait() const {
    if (line != nullptr) line->wait_for(position);
  }
  // The first failure of the work up to the point since the stream's last clear before the
  // point was taken. Known once that work has run, possibly before the point is done.
  WorkResult failure() const {
    return failures == nullptr ? std::nullopt : failures->first_through(position);
  }
};

// One item of work: the worker waits `duration` (the performance model's time for it; zero: no
// wait), then runs `body`, whose effect thus appears when the modelled work ends, and whose
// result says whether the work failed.
struct WorkItem {
  std::function<WorkResult()> body;
  std::chrono::nanoseconds duration{0};
};

class StreamWorker {
 public:
  StreamWorker();
  // Runs what is still queued, then joins the thread: a destroyed stream's work still happens,
  // and the buffers it pinned are released.
  ~StreamWorker();
  StreamWorker(const StreamWorker&) = delete;
  StreamWorker& operator=(const StreamWorker&) = delete;

  void enqueue(WorkItem item);
  // The point after everything enqueued so far.
  Point tail() const;
  // The same, with the time it completes at on the stream's clock (what an event records).
  Point timed_tail();
  bool idle() const { return tail().done(); }
  // The first failure of the work enqueued since the last clear.
  WorkResult failure() const;
  // Waits for everything enqueued so far, returns the first failure of that work since the
  // last clear, and clears the stream through it: points taken later, and work enqueued
  // later, report only their own failures.
  WorkResult synchronize_and_clear();
  // Runs what is still queued and joins the thread; idempotent. The stream takes no more work.
  void stop();
  // The failures no clear has taken yet (after stop: every failure nobody cleared).
  std::vector<WorkFailure> uncleared() const;

 private:
  struct Queued {
    uint64_t position;
    WorkItem item;
  };
  void run();

  const std::shared_ptr<CompletionLine> line_ = std::make_shared<CompletionLine>();
  // Guards the queue, the reserving of positions, the current epoch and its switch, so that a
  // point's position and epoch are taken together.
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Queued> queue_;
  std::shared_ptr<FailureEpoch> failures_ = std::make_shared<FailureEpoch>();
  uint64_t cleared_through_ = 0;
  bool stopping_ = false;
  std::thread thread_;  // last: started once the members above exist
};

// Runs one item in the caller's thread (a call with a NULL stream), taking the same time;
// returns its result.
WorkResult run_now(WorkItem& item);

}  // namespace hxsim
