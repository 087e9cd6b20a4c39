#include "work_queue.hpp"

#include <utility>

namespace hxsim {

uint64_t CompletionLine::reserve() {
  std::lock_guard<std::mutex> lock(mutex_);
  return ++reserved_;
}

void CompletionLine::complete_one(std::chrono::nanoseconds took) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ++completed_;
    clock_ += took;
    while (!untimed_.empty() && untimed_.front().first <= completed_) {
      untimed_.front().second->set(clock_);
      untimed_.pop_front();
    }
  }
  changed_.notify_all();
}

bool CompletionLine::reached(uint64_t position) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return completed_ >= position;
}

void CompletionLine::wait_for(uint64_t position) const {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return completed_ >= position; });
}

uint64_t CompletionLine::last_reserved() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return reserved_;
}

std::pair<uint64_t, std::shared_ptr<const CompletionTime>> CompletionLine::timed_last_reserved() {
  auto time = std::make_shared<CompletionTime>();
  std::lock_guard<std::mutex> lock(mutex_);
  // Nothing is pending when all reserved work has completed: the point is reached now, at the
  // clock of the last completion.
  if (completed_ == reserved_) {
    time->set(clock_);
  } else {
    untimed_.emplace_back(reserved_, time);
  }
  return {reserved_, std::move(time)};
}

WorkResult run_now(WorkItem& item) {
  // The modelled time first, then the effect: the results appear when the modelled work ends,
  // so a reader that does not wait for the work sees stale data rather than lucky results.
  if (item.duration.count() > 0) std::this_thread::sleep_for(item.duration);
  WorkResult result = item.body ? item.body() : std::nullopt;
  item.body = nullptr;  // releases what it captured (buffer pins) as soon as it has run
  return result;
}

StreamWorker::StreamWorker() : thread_([this] { run(); }) {}

StreamWorker::~StreamWorker() { stop(); }

void StreamWorker::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
}

void StreamWorker::enqueue(WorkItem item) {
  {
    // Reserved under the queue's lock, so positions follow queue order.
    std::lock_guard<std::mutex> lock(mutex_);
    queue_.push_back(Queued{line_->reserve(), std::move(item)});
  }
  wake_.notify_one();
}

Point StreamWorker::tail() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return Point{line_, line_->last_reserved(), failures_, nullptr};
}

Point StreamWorker::timed_tail() {
  std::lock_guard<std::mutex> lock(mutex_);
  auto [position, time] = line_->timed_last_reserved();
  return Point{line_, position, failures_, std::move(time)};
}

WorkResult StreamWorker::failure() const {
  std::lock_guard<std::mutex> lock(mutex_);
  const std::vector<WorkFailure> failures = failures_->all();
  if (failures.empty()) return std::nullopt;
  return failures.front();
}

WorkResult StreamWorker::synchronize_and_clear() {
  const Point point = tail();
  point.wait();
  std::lock_guard<std::mutex> lock(mutex_);
  WorkResult first = failures_->first_through(point.position);
  // Work up to the point has run, so no failure at or before it can come after this clear.
  // A concurrent synchronize may have cleared further already: never move back.
  if (point.position > cleared_through_) {
    failures_ = std::make_shared<FailureEpoch>(*failures_, point.position);
    cleared_through_ = point.position;
  }
  return first;
}

std::vector<WorkFailure> StreamWorker::uncleared() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return failures_->all();
}

void StreamWorker::run() {
  for (;;) {
    Queued next{0, {}};
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, and nothing left to run
      next = std::move(queue_.front());
      queue_.pop_front();
    }
    const auto began = std::chrono::steady_clock::now();
    WorkResult failure = run_now(next.item);
    // The clock takes the modelled time as it is, not the host's slower sleep (see the header).
    const std::chrono::nanoseconds took =
        next.item.duration.count() > 0
            ? next.item.duration
            : std::chrono::duration_cast<std::chrono::nanoseconds>(
                  std::chrono::steady_clock::now() - began);
    if (failure) {
      // Kept before the work counts as complete, so a waiter that sees the point done sees
      // its failure too.
      std::lock_guard<std::mutex> lock(mutex_);
      failures_->add(next.position, std::move(*failure));
    }
    line_->complete_one(took);
  }
}

}  // namespace hxsim
