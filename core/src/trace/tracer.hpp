// The process's timeline trace: started by Runtime::start_trace or $HXRT_TRACE (trace.path),
// recorded by the hooks (trace_hooks.hpp) into per-thread buffers, written as Chrome trace
// JSON when it stops: by Runtime::stop_trace, when the runtime that started it is destroyed,
// or at exit. One trace at a time per process; it records the work of every runtime.
#pragma once

#include <cstdint>
#include <fstream>
#include <mutex>
#include <string>

#include "trace/device_work.hpp"
#include "trace/event_log.hpp"

namespace hxrt::detail {

class Tracer {
 public:
  static Tracer& instance();
  ~Tracer();  // writes a trace still running at exit

  // Opens `path` now, so that an unwritable path is an Error here and not at the end, and
  // starts recording, keeping at most `max_events`. `owner` (a runtime) stops it when it goes.
  // Error(kFailedPrecondition) while another trace runs.
  void start(const std::string& path, uint64_t max_events, const void* owner);
  // Writes and closes the running trace; returns its path, or "" when none was running.
  // Error(kInternal) when the file cannot be written.
  std::string stop();
  // Stops the trace if `owner` started it; never throws (for destructors): a failure to
  // write is returned as text, "" when all went well or nothing ran.
  std::string stop_owned_by(const void* owner) noexcept;
  void record(TraceEvent&& event) { log_.append(std::move(event)); }
  void record(TraceEvent&& event, const TensorMeta* inputs, size_t num_inputs) {
    log_.append(std::move(event), inputs, num_inputs);
  }
  // Where spans of queued device work wait for their completion.
  DeviceWorkPoller& device_work() { return device_work_; }
  // Waits (up to a bound) for the spans of queued device work, so that the work of a
  // runtime that goes is recorded before what its completion tests query goes too.
  void settle_device_work();
  // The running trace's file; "" when none runs.
  std::string path();

 private:
  Tracer() = default;
  std::mutex mutex_;  // guards the fields below, start and stop
  std::ofstream file_;
  std::string path_;
  const void* owner_ = nullptr;
  int64_t origin_ns_ = 0;
  uint64_t max_events_ = 0;
  EventLog log_;
  DeviceWorkPoller device_work_{log_};  // after log_: it records into it until it ends
};

}  // namespace hxrt::detail
