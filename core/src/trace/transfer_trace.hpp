// The trace of copies (on the stream of the device that runs them) and of host waits on a
// device (on the waiting thread). Each is recorded only when its SpanTimer started while
// tracing.
#pragma once

#include <cstddef>
#include <string>

#include "trace/span_timer.hpp"

namespace hxrt::detail {

// `direction`: "host to device", "device to device", "device to host", "device to host to
// device" (between plugins); `from`/`to`: device names, or "host"; `device`: whose stream
// runs it.
struct CopyTraceInfo {
  const char* direction;
  size_t bytes;
  const std::string& from;
  const std::string& to;
  const std::string& device;
};

void record_copy(const SpanTimer& timer, const CopyTraceInfo& info);
void record_wait(const SpanTimer& timer, const std::string& device, const char* why);

inline void trace_copy(const SpanTimer& timer, const CopyTraceInfo& info) {
  if (timer.on()) record_copy(timer, info);
}
inline void trace_wait(const SpanTimer& timer, const std::string& device, const char* why) {
  if (timer.on()) record_wait(timer, device, why);
}

}  // namespace hxrt::detail
