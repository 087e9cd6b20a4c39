#include "trace/transfer_trace.hpp"

#include "trace/tracer.hpp"

namespace hxrt::detail {
namespace {

TraceEvent copy_event(const CopyTraceInfo& info) {
  NameTable& names = NameTable::instance();
  TraceEvent event;
  event.kind = TraceEvent::Kind::kCopy;
  event.label = info.direction;
  event.bytes = info.bytes;
  event.from = names.id(info.from);
  event.to = names.id(info.to);
  event.device = names.id(info.device);
  event.stream = info.stream;
  return event;
}

}  // namespace

void record_copy(const SpanTimer& timer, const CopyTraceInfo& info) {
  TraceEvent event = copy_event(info);
  event.start_ns = timer.start_ns();
  event.duration_ns = trace_now_ns() - event.start_ns;
  Tracer::instance().record(std::move(event));
}

void record_wait(const SpanTimer& timer, const std::string& device, const char* why) {
  TraceEvent event;
  event.kind = TraceEvent::Kind::kHostWait;
  event.label = why;
  event.from = NameTable::instance().id(device);
  event.start_ns = timer.start_ns();
  event.duration_ns = trace_now_ns() - event.start_ns;
  Tracer::instance().record(std::move(event));
}

void note_device_copy(const CopyTraceInfo& info, CompletionTest done) {
  TraceEvent event = copy_event(info);
  event.start_ns = trace_now_ns();
  Tracer::instance().device_work().add(std::move(event), nullptr, 0, std::move(done));
}

void record_stream_wait(const std::string& device, int stream,
                        const std::string& waited_device, const std::string& waited_op) {
  NameTable& names = NameTable::instance();
  TraceEvent event;
  event.kind = TraceEvent::Kind::kStreamWait;
  event.device = names.id(device);
  event.stream = stream;
  event.from = names.id(waited_device);
  event.name = names.id(waited_op);
  event.start_ns = trace_now_ns();
  Tracer::instance().record(std::move(event));
}

void record_work_error(const std::string& device, const std::string& op,
                       const std::string& plugin, const std::string& message) {
  NameTable& names = NameTable::instance();
  TraceEvent event;
  event.kind = TraceEvent::Kind::kError;
  event.device = names.id(device);
  event.name = names.id(op);
  event.plugin = names.id(plugin);
  event.text = message;
  event.start_ns = trace_now_ns();
  Tracer::instance().record(std::move(event));
}

}  // namespace hxrt::detail
