#include "trace/device_work.hpp"

#include <algorithm>

#include "trace/event_log.hpp"
#include "trace/trace_clock.hpp"
#include "trace/tracer.hpp"

namespace hxrt::detail {
namespace {

constexpr std::chrono::microseconds kPollInterval{100};

// A test that throws counts as done: the span ends, and the poller goes on.
bool completed(const CompletionTest& done) noexcept {
  try {
    return done();
  } catch (...) {
    return true;
  }
}

}  // namespace

void note_device_work(const std::string& device, int stream, const std::string& op,
                      const TensorMeta* inputs, size_t num_inputs, CompletionTest done) {
  NameTable& names = NameTable::instance();
  TraceEvent event;
  event.kind = TraceEvent::Kind::kKernel;
  event.name = names.id(op);
  event.device = names.id(device);
  event.stream = stream;
  event.start_ns = trace_now_ns();
  Tracer::instance().device_work().add(std::move(event), inputs, num_inputs, std::move(done));
}

DeviceWorkPoller::~DeviceWorkPoller() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void DeviceWorkPoller::add(TraceEvent&& event, const TensorMeta* inputs, size_t num_inputs,
                           CompletionTest done) {
  Pending pending{std::move(event), std::vector<TensorMeta>(inputs, inputs + num_inputs),
                  std::move(done)};
  {
    std::lock_guard<std::mutex> lock(mutex_);
    incoming_.push_back(std::move(pending));
    ++pending_;
    if (!thread_.joinable()) thread_ = std::thread([this] { poll_loop(); });
  }
  wake_.notify_one();
}

size_t DeviceWorkPoller::settle(std::chrono::milliseconds bound) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (settled_.wait_for(lock, bound, [this] { return pending_ == 0; })) return 0;
  const size_t unfinished = pending_;
  abandon_ = true;
  wake_.notify_all();
  settled_.wait(lock, [this] { return pending_ == 0 || stopping_; });
  abandon_ = false;
  return unfinished;
}

void DeviceWorkPoller::poll_loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stopping_) {
    for (Pending& pending : incoming_) {
      const StreamKey key{pending.event.device, pending.event.stream};
      active_[key].push_back(std::move(pending));
    }
    incoming_.clear();
    const bool abandon = abandon_;
    lock.unlock();  // the tests call plugins: never under the lock add() takes
    size_t ended = 0;
    if (abandon) {
      const int64_t now = trace_now_ns();
      for (auto& stream : active_) {
        for (Pending& pending : stream.second) finish(pending, now, true);
        ended += stream.second.size();
      }
      active_.clear();
    } else {
      for (auto& stream : active_) {
        std::deque<Pending>& queue = stream.second;
        while (!queue.empty() && completed(queue.front().done)) {
          finish(queue.front(), trace_now_ns(), false);
          queue.pop_front();  // drops the test, and what it holds, outside the lock
          ++ended;
        }
      }
    }
    lock.lock();
    pending_ -= ended;
    if (pending_ == 0) {
      active_.clear();
      settled_.notify_all();
      wake_.wait(lock, [this] { return stopping_ || !incoming_.empty(); });
    } else {
      wake_.wait_for(lock, kPollInterval, [this] { return stopping_ || abandon_; });
    }
  }
  settled_.notify_all();
}

void DeviceWorkPoller::finish(Pending& pending, int64_t end_ns, bool unfinished) {
  TraceEvent& event = pending.event;
  int64_t& last_end = last_end_ns_[{event.device, event.stream}];
  event.start_ns = std::max(event.start_ns, last_end);
  event.duration_ns = std::max<int64_t>(0, end_ns - event.start_ns);
  event.unfinished = unfinished;
  last_end = event.start_ns + event.duration_ns;
  log_.append(std::move(event), pending.inputs.data(), pending.inputs.size());
}

}  // namespace hxrt::detail
