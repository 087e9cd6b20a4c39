// The simulated device's execution engine: each stream is a worker thread that runs the work
// enqueued on it, in order, off the caller's thread. Completion is a count per stream (its
// CompletionLine): the n-th item enqueued is complete once `completed` reaches n, so an event
// is just (line, n) and needs no object of its own in the queue. A cross-device wait is an
// item that blocks its worker until another line reaches a count; waits only name points
// recorded earlier in real time, so they cannot form a cycle.
// Work may fail as it runs: its failure is kept in the stream's current FailureEpoch
// (work_failure.hpp) with its position, and reported by the points recorded after it until a
// clear (stream synchronize) starts a new epoch.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "work_failure.hpp"

namespace hxsim {

class CompletionLine {
 public:
  // Reserves the next position: the count `completed` must reach for it to be complete.
  uint64_t reserve();
  // Marks the oldest reserved position complete and wakes every waiter.
  void complete_one();
  bool reached(uint64_t position) const;
  void wait_for(uint64_t position) const;
  // The position of the last item reserved so far (0 when none).
  uint64_t last_reserved() const;

 private:
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  uint64_t reserved_ = 0;
  uint64_t completed_ = 0;
};

// A point in one stream's work: complete once its line reaches `position`. A point without a
// line (never recorded, or recorded where all work is synchronous) is complete and never
// fails.
struct Point {
  std::shared_ptr<const CompletionLine> line;
  uint64_t position = 0;
  // The stream's epoch when the point was taken: the failures the point reports.
  std::shared_ptr<const FailureEpoch> failures;

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
