#include "ops/builtin_registry.hpp"

namespace hxrt::detail {

OpInfo op_info(const OpSchema& schema) {
  OpInfo info;
  info.name = schema.name;
  info.owner = schema.owner.empty() ? "core" : schema.owner;
  info.summary = schema.summary;
  info.min_inputs = schema.min_inputs;
  info.max_inputs = schema.max_inputs;
  info.num_outputs = schema.num_outputs;
  info.inputs = schema.inputs;
  info.outputs = schema.outputs;
  info.attrs = schema.attrs;
  info.type_parameter = schema.type_parameter;
  info.broadcasts = schema.broadcasts;
  info.extents_at_run = schema.extents_at_run;
  info.shape_rule = schema.shape_rule;
  if (!schema.onnx.versions.empty()) {
    info.onnx_op = schema.onnx.op.empty() ? schema.name : schema.onnx.op;
    info.onnx_versions = schema.onnx.versions;
  }
  return info;
}

}  // namespace hxrt::detail

namespace hxrt {

std::vector<OpInfo> core_ops() {
  std::vector<OpInfo> ops;
  for (const detail::OpSchema* schema : detail::builtin_registry().all()) {
    ops.push_back(detail::op_info(*schema));
  }
  return ops;
}

}  // namespace hxrt
