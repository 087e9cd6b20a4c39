// Spans of work queued on a device's stream. The ABI gives events no timestamps, so a span
// ends when a poller thread first sees the work's completion test return true (it polls
// every ~100 µs while any work is pending, and sleeps otherwise); it starts at the later of
// its enqueue and the end of the span before it on the same stream (a stream runs in order).
// Accurate to the polling interval, which a trace of ops that take milliseconds can afford.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "trace/trace_event.hpp"
#include "base/tensor_meta.hpp"

namespace hxrt::detail {

class EventLog;

// Whether the work has completed (or failed): e.g. a query of the op's ready event. Called
// on the poller thread, never blocking; what it captures must stay valid until it returns
// true or is dropped (capture the event by shared_ptr).
using CompletionTest = std::function<bool()>;

// The span of work on `stream` of `device` (a kernel: `op` and its inputs' shapes), enqueued
// now. Call only while tracing() (the caller tests it, so that off it builds nothing).
void note_device_work(const std::string& device, int stream, const std::string& op,
                      const TensorMeta* inputs, size_t num_inputs, CompletionTest done);

class DeviceWorkPoller {
 public:
  explicit DeviceWorkPoller(EventLog& log) : log_(log) {}
  ~DeviceWorkPoller();  // drops pending work unrecorded and ends the thread

  // `event` (kKernel or kCopy, with device, stream and start_ns = the enqueue) ends when
  // `done` first returns true. Starts the poller on first use.
  void add(TraceEvent&& event, const TensorMeta* inputs, size_t num_inputs,
           CompletionTest done);
  // Waits up to `bound` for all pending work to complete; records what is still pending
  // then as unfinished (ending at the bound, with a note) and drops its tests. Returns how
  // many were unfinished.
  size_t settle(std::chrono::milliseconds bound);

 private:
  struct Pending {
    TraceEvent event;
    std::vector<TensorMeta> inputs;
    CompletionTest done;
  };
  using StreamKey = std::pair<NameId, int32_t>;

  void poll_loop();
  // Ends the pending spans at the head of each stream that are done; true when none remains.
  bool poll_once();
  void finish(Pending& pending, int64_t end_ns, bool unfinished);

  EventLog& log_;
  std::mutex mutex_;
  std::condition_variable wake_;     // work arrived, a settle asks, or stopping
  std::condition_variable settled_;  // nothing pending any more
  std::vector<Pending> incoming_;    // guarded by mutex_
  size_t pending_ = 0;               // incoming_ and active_, guarded by mutex_
  bool abandon_ = false;             // settle's bound passed: record the rest unfinished
  bool stopping_ = false;
  std::thread thread_;
  // The poller thread's own: per stream, in enqueue order; and each stream's last span end.
  std::map<StreamKey, std::deque<Pending>> active_;
  std::map<StreamKey, int64_t> last_end_ns_;
};

}  // namespace hxrt::detail
