#include "trace/op_trace.hpp"

#include "trace/tracer.hpp"

namespace hxrt::detail {
namespace {

nlohmann::json op_args(const OpTraceInfo& info) {
  nlohmann::json inputs = nlohmann::json::array();
  for (size_t i = 0; i < info.num_inputs; ++i) {
    inputs.push_back(std::string(dtype_name(info.inputs[i].dtype)) +
                     info.inputs[i].shape.to_string());
  }
  std::string placement = info.reason;
  if (placement.empty()) {
    placement = info.requested.empty() ? "by device priority" : "as requested: " + info.requested;
  }
  return {{"op", info.op},           {"inputs", inputs},       {"device", info.device},
          {"plugin", info.plugin},   {"placement", placement}};
}

}  // namespace

void OpTrace::record(const OpTraceInfo& info) const {
  const int64_t end_ns = trace_now_ns();
  const nlohmann::json args = op_args(info);
  TraceEvent call;
  call.category = "op";
  call.name = info.op;
  call.start_ns = call_.start_ns();
  call.duration_ns = end_ns - call.start_ns;
  call.args = args;
  Tracer::instance().record(std::move(call));
  if (!kernel_.on()) return;  // tracing started between the call and its kernel
  TraceEvent kernel;
  kernel.category = "kernel";
  kernel.name = info.op;
  kernel.start_ns = kernel_.start_ns();
  kernel.duration_ns = end_ns - kernel.start_ns;
  kernel.device = info.device;
  kernel.args = args;
  Tracer::instance().record(std::move(kernel));
}

}  // namespace hxrt::detail
