// The process's timeline trace: started by Runtime::start_trace or $HXRT_TRACE (trace.path),
// recorded by the hooks (trace_hooks.hpp) into per-thread buffers, written as Chrome trace
// JSON when it stops: by Runtime::stop_trace, when the runtime that started it is destroyed,
// or at exit. One trace at a time per process; it records the work of every runtime.
//
// The file is a regular one (or a new one): a FIFO, a device or a folder is refused at start,
// as a FIFO would block the open for ever. It is written atomically (trace/trace_file.hpp): to
// a temporary file beside the path, created at start, renamed over the path at the end, so a
// failure never leaves half a trace there. Every string is written as valid JSON, bytes that
// are not UTF-8 (a graph node's name may hold any) as U+FFFD. A stop that fails still stops
// the trace: the next start works.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "trace/device_work.hpp"
#include "trace/event_log.hpp"
#include "trace/trace_file.hpp"

namespace hxrt::detail {

class Tracer {
 public:
  static Tracer& instance();
  ~Tracer();  // writes a trace still running at exit; a failure is told on stderr

  // Checks `path` and creates the trace's temporary file now, so that a path that is no
  // regular file or cannot be written is an Error(kInvalidArgument) here and not at the end,
  // and starts recording, keeping at most `max_events`. `owner` (a runtime) stops it when it
  // goes. Error(kFailedPrecondition) while another trace runs.
  void start(const std::string& path, uint64_t max_events, const void* owner);
  // Writes the running trace and puts it at its path; returns its path, or "" when none was
  // running. Error(kInternal) when it cannot be written (never another exception): the path
  // is left as it was, and the trace is stopped all the same.
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
  std::string stop_locked();  // stop, with mutex_ held

  std::mutex mutex_;  // guards the fields below, start and stop
  std::unique_ptr<TraceFile> file_;  // the running trace's; null when none runs
  const void* owner_ = nullptr;
  int64_t origin_ns_ = 0;
  uint64_t max_events_ = 0;
  EventLog log_;
  DeviceWorkPoller device_work_{log_};  // after log_: it records into it until it ends
};

}  // namespace hxrt::detail
