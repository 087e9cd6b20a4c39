#include "trace/op_trace.hpp"

#include "trace/tracer.hpp"

namespace hxrt::detail {
namespace {

// Raw values only: names by id, shapes by the log's pool; formatted when written.
TraceEvent op_event(TraceEvent::Kind kind, const OpTraceInfo& info) {
  NameTable& names = NameTable::instance();
  TraceEvent event;
  event.kind = kind;
  event.name = names.id(info.op);
  event.device = names.id(info.device);
  event.plugin = names.id(info.plugin);
  if (info.node != nullptr) event.node = names.id(*info.node);
  return event;
}

void record_host_span(const OpTraceInfo& info, int64_t start_ns, int64_t end_ns,
                      const std::string* error) {
  TraceEvent call = op_event(TraceEvent::Kind::kOp, info);
  call.start_ns = start_ns;
  call.duration_ns = end_ns - start_ns;
  call.text = info.requested;
  call.reason = info.reason;
  if (error != nullptr) call.label = "failed";
  Tracer::instance().record(std::move(call), info.inputs, info.num_inputs);
  if (error == nullptr) return;
  TraceEvent failure = op_event(TraceEvent::Kind::kError, info);
  failure.start_ns = end_ns;
  failure.text = *error;
  Tracer::instance().record(std::move(failure));
}

}  // namespace

void OpTrace::record(const OpTraceInfo& info) const {
  const int64_t end_ns = trace_now_ns();
  record_host_span(info, call_.start_ns(), end_ns, nullptr);
  if (!kernel_.on()) return;  // tracing started between the call and its kernel
  TraceEvent kernel = op_event(TraceEvent::Kind::kKernel, info);
  kernel.start_ns = kernel_.start_ns();
  kernel.duration_ns = end_ns - kernel.start_ns;
  Tracer::instance().record(std::move(kernel), info.inputs, info.num_inputs);
}

void OpTrace::record_enqueued(const OpTraceInfo& info, int stream, CompletionTest done) const {
  const int64_t end_ns = trace_now_ns();
  record_host_span(info, call_.start_ns(), end_ns, nullptr);
  TraceEvent kernel = op_event(TraceEvent::Kind::kKernel, info);
  kernel.stream = stream;
  kernel.start_ns = kernel_.on() ? kernel_.start_ns() : end_ns;
  Tracer::instance().device_work().add(std::move(kernel), info.inputs, info.num_inputs,
                                       std::move(done));
}

void OpTrace::record_failure(const OpTraceInfo& info, const std::string& message) const {
  record_host_span(info, call_.start_ns(), trace_now_ns(), &message);
}

}  // namespace hxrt::detail
