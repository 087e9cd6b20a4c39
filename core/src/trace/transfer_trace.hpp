// The trace of copies (on the stream of the device that runs them), of host waits on a
// device (on the waiting thread), of streams told to wait for another device's work, and of
// failures of queued work seen at a wait. Each is recorded only while tracing.
#pragma once

#include <cstddef>
#include <string>

#include "trace/device_work.hpp"
#include "trace/span_timer.hpp"
#include "trace/trace_event.hpp"

namespace hxrt::detail {

// `direction`: "host to device", "device to device", "device to host", "between plugins";
// `from`/`to`: device names, or "host"; `device`: whose stream runs it; `stream`: which of
// its streams, kNullStream for a call that completes before it returns.
struct CopyTraceInfo {
  const char* direction;
  size_t bytes;
  const std::string& from;
  const std::string& to;
  const std::string& device;
  int stream = 0;
};

// A copy that ran during `timer`'s span (a synchronous device, or a NULL-stream copy).
void record_copy(const SpanTimer& timer, const CopyTraceInfo& info);
// The host waited during `timer`'s span for `device` (`why`: "to_host", "Tensor::wait",
// "Runtime::synchronize", "the source of a copy between plugins"; a static string).
void record_wait(const SpanTimer& timer, const std::string& device, const char* why);

inline void trace_copy(const SpanTimer& timer, const CopyTraceInfo& info) {
  if (timer.on()) record_copy(timer, info);
}
inline void trace_wait(const SpanTimer& timer, const std::string& device, const char* why) {
  if (timer.on()) record_wait(timer, device, why);
}

// A copy enqueued now on `info.stream` of `info.device`, ending when `done` first returns
// true (trace/device_work.hpp). Call only while tracing().
void note_device_copy(const CopyTraceInfo& info, CompletionTest done);
// `stream` of `device` was told to wait for `waited_op`'s event on `waited_device`: an
// instant on the waiting stream. Call only while tracing().
void record_stream_wait(const std::string& device, int stream,
                        const std::string& waited_device, const std::string& waited_op);
// Queued work failed: `message` (the Error's text) seen now, for `op` on `device` of
// `plugin`; an instant on the device. Call only while tracing().
void record_work_error(const std::string& device, const std::string& op,
                       const std::string& plugin, const std::string& message);

}  // namespace hxrt::detail
