// Conv: ONNX's convolution (cross-correlation) over 1 or more spatial axes, with groups.
#include <string>

#include "ops/builtin_op_families.hpp"
#include "ops/fused_activation.hpp"
#include "ops/infer_checks.hpp"
#include "ops/window_geometry.hpp"

namespace hxrt::detail {

namespace {

void infer_conv(const InferContext& call, TensorMeta* outputs) {
  require_inputs_in(call, floating_dtypes());
  require_same_dtype(call);
  const Shape& x = call.inputs[0].shape;
  const Shape& w = call.inputs[1].shape;
  if (x.rank() < 3) {
    reject_call(call, "input X has shape " + x.to_string() +
                          "; Conv takes [N, C, D1, ...] with at least one spatial axis");
  }
  if (w.rank() != x.rank()) {
    reject_call(call, "input W has shape " + w.to_string() + " but X has " + x.to_string() +
                          "; W is [M, C / group, k1, ...], of X's rank");
  }
  const int64_t group = attr_int(call, "group", 1);
  if (group < 1) reject_call(call, "attribute 'group' is " + std::to_string(group) + "; >= 1");
  if (x[1] % group != 0 || x[1] / group != w[1] || w[0] % group != 0) {
    reject_call(call, "X has " + std::to_string(x[1]) + " channels and W is " + w.to_string() +
                          " with group " + std::to_string(group) +
                          ": X's channels must be W's second extent times group, and W's first "
                          "extent (the output channels) a multiple of group");
  }
  if (call.num_inputs == 3 && call.inputs[2].shape != Shape{w[0]}) {
    reject_call(call, "input B has shape " + call.inputs[2].shape.to_string() +
                          "; the bias is [M] = [" + std::to_string(w[0]) + "]");
  }
  const std::vector<int64_t> weights = w.to_vector();
  const WindowGeometry window =
      window_geometry(call, x, std::vector<int64_t>(weights.begin() + 2, weights.end()), false);
  outputs[0].dtype = call.inputs[0].dtype;
  outputs[0].shape = windowed_output(call, x[0], w[0], window);
}

void infer_fused_conv(const InferContext& call, TensorMeta* outputs) {
  infer_conv(call, outputs);
  check_fused_activation(call);
}

}  // namespace

void add_conv_ops(OpRegistry& registry) {
  OpSchema schema{"Conv", 2, 3, 1, infer_conv, ""};
  schema.summary = "Convolution (cross-correlation, as ONNX's Conv) of X with the kernels W, "
                   "plus an optional bias.";
  schema.inputs = {
      {"X", "T", floating_dtypes(), "[N, C, D1, ..., Dn]: n >= 1 spatial axes", false},
      {"W", "T", floating_dtypes(), "[M, C / group, k1, ..., kn]: M kernels", false},
      {"B", "T", floating_dtypes(), "optional: [M], added to each output channel", false},
  };
  schema.outputs = {{"Y", "T", floating_dtypes(), "[N, M, O1, ..., On]", false}};
  schema.attrs = window_attrs(true);
  schema.attrs.push_back({"group", AttrType::kInt, false, AttrValue(int64_t{1}),
                          "the channel groups: output channel group g sees input channel group "
                          "g only"});
  schema.shape_rule =
      "W has X's rank and [M, C / group, k...]; kernel_shape, when given, equals k. On each "
      "spatial axis the window spans (k - 1) * dilation + 1 elements; with auto_pad NOTSET or "
      "VALID, O = floor((D + pad_begin + pad_end - span) / stride) + 1 and the span must fit "
      "the padded input; with SAME_UPPER or SAME_LOWER, O = ceil(D / stride). Sums accumulate "
      "in f32 for f32, f16 and bf16.";
  schema.reference_cases = conv_cases;
  schema.onnx.versions = {11};
  // ONNX Runtime's contrib op of the same name and attributes (bar its residual input Z).
  OpSchema fused = fused_schema(schema, "FusedConv", infer_fused_conv, fused_conv_cases);
  registry.add(std::move(schema));
  registry.add(std::move(fused));
}

}  // namespace hxrt::detail
