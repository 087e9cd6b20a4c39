// ConvTranspose: the transpose (gradient) of Conv, ONNX's, with groups, output_padding and
// output_shape.
#include <string>

#include "ops/builtin_op_families.hpp"
#include "ops/infer_checks.hpp"
#include "ops/window_geometry.hpp"

namespace hxrt::detail {

namespace {

void infer_conv_transpose(const InferContext& call, TensorMeta* outputs) {
  require_inputs_in(call, floating_dtypes());
  require_same_dtype(call);
  const Shape& x = call.inputs[0].shape;
  const Shape& w = call.inputs[1].shape;
  if (x.rank() < 3) {
    reject_call(call, "input X has shape " + x.to_string() +
                          "; ConvTranspose takes [N, C, D1, ...] with at least one spatial axis");
  }
  if (w.rank() != x.rank() || w[0] != x[1]) {
    reject_call(call, "input W has shape " + w.to_string() + " for X " + x.to_string() +
                          "; W is [C, M / group, k1, ...], of X's rank");
  }
  const int64_t group = attr_int(call, "group", 1);
  if (group < 1 || x[1] % group != 0) {
    reject_call(call, "attribute 'group' is " + std::to_string(group) + "; it is at least 1 "
                          "and divides X's channels " + std::to_string(x[1]));
  }
  int64_t channels = 0;
  if (__builtin_mul_overflow(w[1], group, &channels)) {
    reject_call(call, "W's second extent times group overflows");
  }
  if (call.num_inputs == 3 && call.inputs[2].shape != Shape{channels}) {
    reject_call(call, "input B has shape " + call.inputs[2].shape.to_string() +
                          "; the bias is [M] = [" + std::to_string(channels) + "]");
  }
  const std::vector<int64_t> weights = w.to_vector();
  const TransposedWindow window = conv_transpose_geometry(
      call, x, std::vector<int64_t>(weights.begin() + 2, weights.end()));
  std::vector<int64_t> dims = {x[0], channels};
  dims.insert(dims.end(), window.output.begin(), window.output.end());
  outputs[0].dtype = call.inputs[0].dtype;
  outputs[0].shape = Shape(dims);  // conv_transpose_geometry bounded each extent
}

}  // namespace

void add_conv_transpose_op(OpRegistry& registry) {
  OpSchema schema{"ConvTranspose", 2, 3, 1, infer_conv_transpose, ""};
  schema.summary = "Transposed convolution (ONNX's ConvTranspose): each input element scatters "
                   "its kernel, scaled, into the output; plus an optional bias.";
  schema.inputs = {
      {"X", "T", floating_dtypes(), "[N, C, D1, ..., Dn]: n >= 1 spatial axes", false},
      {"W", "T", floating_dtypes(), "[C, M / group, k1, ..., kn]", false},
      {"B", "T", floating_dtypes(), "optional: [M], added to each output channel", false},
  };
  schema.outputs = {{"Y", "T", floating_dtypes(), "[N, M, O1, ..., On]", false}};
  schema.attrs = window_attrs(true);
  schema.attrs.push_back({"group", AttrType::kInt, false, AttrValue(int64_t{1}),
                          "the channel groups"});
  schema.attrs.push_back({"output_padding", AttrType::kInts, false, std::nullopt,
                          "extra elements at the end of each spatial axis (absent: 0)"});
  schema.attrs.push_back({"output_shape", AttrType::kInts, false, std::nullopt,
                          "the output's spatial extents; the pads follow from them"});
  schema.shape_rule =
      "W is [C, M / group, k...] of X's rank. Without output_shape and auto_pad NOTSET or "
      "VALID, O = stride * (D - 1) + output_padding + (k - 1) * dilation + 1 - pad_begin - "
      "pad_end; with SAME_UPPER or SAME_LOWER, O = D * stride. With output_shape, O is it and "
      "the total padding stride * (D - 1) + output_padding + (k - 1) * dilation + 1 - O (at "
      "least 0) is split with the odd element at the start, or at the end with SAME_UPPER. "
      "output_padding is below the stride or the dilation.";
  schema.reference_cases = conv_transpose_cases;
  schema.onnx.versions = {11};
  registry.add(std::move(schema));
}

}  // namespace hxrt::detail
