#include "trace/transfer_trace.hpp"

#include "trace/tracer.hpp"

namespace hxrt::detail {

void record_copy(const SpanTimer& timer, const CopyTraceInfo& info) {
  TraceEvent event;
  event.category = "copy";
  event.name = std::string("copy ") + info.direction;
  event.start_ns = timer.start_ns();
  event.duration_ns = trace_now_ns() - event.start_ns;
  event.device = info.device;
  event.args = {{"direction", info.direction},
                {"bytes", info.bytes},
                {"from", info.from},
                {"to", info.to}};
  Tracer::instance().record(std::move(event));
}

void record_wait(const SpanTimer& timer, const std::string& device, const char* why) {
  TraceEvent event;
  event.category = "wait";
  event.name = "wait for " + device;
  event.start_ns = timer.start_ns();
  event.duration_ns = trace_now_ns() - event.start_ns;
  event.args = {{"device", device}, {"why", why}};
  Tracer::instance().record(std::move(event));
}

}  // namespace hxrt::detail
