#include "work_queue.hpp"

#include <utility>

namespace hxsim {

uint64_t CompletionLine::reserve() {
  std::lock_guard<std::mutex> lock(mutex_);
  return ++reserved_;
}

void CompletionLine::complete_one() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ++completed_;
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

void run_now(WorkItem& item) {
  // The modelled time first, then the effect: the results appear when the modelled work ends,
  // so a reader that does not wait for the work sees stale data rather than lucky results.
  if (item.duration.count() > 0) std::this_thread::sleep_for(item.duration);
  if (item.body) item.body();
  item.body = nullptr;  // releases what it captured (buffer pins) as soon as it has run
}

StreamWorker::StreamWorker() : thread_([this] { run(); }) {}

StreamWorker::~StreamWorker() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

void StreamWorker::enqueue(WorkItem item) {
  {
    // Reserved under the queue's lock, so positions follow queue order.
    std::lock_guard<std::mutex> lock(mutex_);
    line_->reserve();
    queue_.push_back(std::move(item));
  }
  wake_.notify_one();
}

Point StreamWorker::tail() const { return Point{line_, line_->last_reserved()}; }

void StreamWorker::run() {
  for (;;) {
    WorkItem item;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, and nothing left to run
      item = std::move(queue_.front());
      queue_.pop_front();
    }
    run_now(item);
    line_->complete_one();
  }
}

}  // namespace hxsim
