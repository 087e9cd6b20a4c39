// The process's timeline trace: started by Runtime::start_trace or $HXRT_TRACE (trace.path),
// recorded by the hooks (trace_hooks.hpp) into per-thread buffers, written as Chrome trace
// JSON when it stops: by Runtime::stop_trace, when the runtime that started it is destroyed,
// or at exit. One trace at a time per process; it records the work of every runtime.
#pragma once

#include <cstdint>
#include <fstream>
#include <mutex>
#include <string>

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
};

}  // namespace hxrt::detail
