// Activations with attributes (LeakyRelu, Gelu, HardSigmoid, HardSwish), Clip, and Dropout as
// inference runs it: element-wise functions whose y has x's dtype and shape (and Dropout's mask
// of bools beside it).
#include <cmath>
#include <string>

#include "ops/builtin_op_families.hpp"
#include "ops/infer_checks.hpp"

namespace hxrt::detail {

namespace {

void infer_gelu(const InferContext& call, TensorMeta* outputs) {
  const std::string approximate = attr_string(call, "approximate", "none");
  if (approximate != "none" && approximate != "tanh") {
    reject_call(call, "attribute 'approximate' is \"" + approximate +
                          "\"; expected \"none\" (the exact erf form) or \"tanh\"");
  }
  infer_floating_unary(call, outputs);
}

void infer_leaky_relu(const InferContext& call, TensorMeta* outputs) {
  attr_float(call, "alpha", 0.01);  // refuses an alpha of another type before any kernel
  infer_floating_unary(call, outputs);
}

void infer_hard_sigmoid(const InferContext& call, TensorMeta* outputs) {
  attr_float(call, "alpha", 0.2);
  attr_float(call, "beta", 0.5);
  infer_floating_unary(call, outputs);
}

void infer_clip(const InferContext& call, TensorMeta* outputs) {
  for (const char* bound : {"min", "max"}) {
    if (std::isnan(attr_float(call, bound, 0))) {
      reject_call(call, std::string("attribute '") + bound +
                            "' is NaN; give a number, or leave it out for no bound");
    }
  }
  infer_numeric_unary(call, outputs);
}

void infer_dropout(const InferContext& call, TensorMeta* outputs) {
  const double ratio = attr_float(call, "ratio", 0.5);
  if (!(ratio >= 0 && ratio < 1)) {
    reject_call(call, "attribute 'ratio' is " + attr_value_to_string(AttrValue(ratio)) +
                          "; ONNX defines it in [0, 1)");
  }
  // Training with a ratio of 0 drops nothing: it is inference's pass-through, mask and all.
  if (attr_bool(call, "training_mode", false) && ratio != 0) {
    reject_call(call, "training_mode is true with ratio " + attr_value_to_string(AttrValue(ratio)) +
                          ", but hxrt runs Dropout for inference only, where it passes x "
                          "through; export the model for inference (training_mode false or "
                          "absent)");
  }
  attr_int(call, "seed", 0);
  infer_floating_unary(call, outputs);
  outputs[1] = {DType::kBool, outputs[0].shape};
}

OpSchema activation_schema(const char* name, InferFn infer, const char* summary, const char* y,
                           ReferenceCasesFn cases, int onnx_version) {
  OpSchema schema{name, 1, 1, 1, infer, ""};
  schema.summary = summary;
  schema.inputs = {{"x", "T", floating_dtypes(), "any tensor of a floating dtype", false}};
  schema.outputs = {{"y", "T", floating_dtypes(), y, false}};
  schema.shape_rule = "y has x's shape. NaN stays NaN.";
  schema.reference_cases = cases;
  schema.onnx.versions = {onnx_version};
  return schema;
}

}  // namespace

void add_activation_ops(OpRegistry& registry) {
  OpSchema leaky_relu = activation_schema(
      "LeakyRelu", infer_leaky_relu,
      "Leaky rectified linear unit: x where x >= 0, alpha * x elsewhere.",
      "x where x >= 0, alpha * x where x < 0", leaky_relu_cases, 16);
  leaky_relu.attrs = {{"alpha", AttrType::kFloat, false, AttrValue(0.01),
                       "the slope for negative x"}};
  registry.add(std::move(leaky_relu));

  OpSchema gelu = activation_schema(
      "Gelu", infer_gelu,
      "Gaussian error linear unit: x * Phi(x), Phi the standard normal distribution function.",
      "0.5 * x * (1 + erf(x / sqrt(2))); with approximate \"tanh\", 0.5 * x * (1 + tanh(sqrt(2 "
      "/ pi) * (x + 0.044715 * x^3)))",
      gelu_cases, 20);
  gelu.attrs = {{"approximate", AttrType::kString, false, AttrValue(std::string("none")),
                 "\"none\": the exact form with erf; \"tanh\": the tanh approximation"}};
  registry.add(std::move(gelu));

  OpSchema hard_sigmoid = activation_schema(
      "HardSigmoid", infer_hard_sigmoid,
      "A piecewise linear sigmoid: max(0, min(1, alpha * x + beta)) element by element.",
      "max(0, min(1, alpha * x + beta)), in [0, 1]", hard_sigmoid_cases, 6);
  hard_sigmoid.attrs = {
      {"alpha", AttrType::kFloat, false, AttrValue(0.2), "the slope"},
      {"beta", AttrType::kFloat, false, AttrValue(0.5), "the offset"},
  };
  registry.add(std::move(hard_sigmoid));

  registry.add(activation_schema(
      "HardSwish", infer_floating_unary,
      "x times a hard sigmoid of x: x * max(0, min(1, x / 6 + 0.5)) element by element.",
      "x * max(0, min(1, x / 6 + 0.5)): 0 for x <= -3, x for x >= 3", hard_swish_cases, 14));

  OpSchema clip{"Clip", 1, 1, 1, infer_clip, ""};
  clip.summary = "Limits x to [min, max] element by element.";
  clip.inputs = {{"input", "T", numeric_dtypes(), "any tensor", false}};
  clip.outputs = {{"output", "T", numeric_dtypes(),
                   "min where input < min, max where input > max, input elsewhere", false}};
  clip.attrs = {
      {"min", AttrType::kFloat, false, std::nullopt, "the lower bound; absent: none"},
      {"max", AttrType::kFloat, false, std::nullopt, "the upper bound; absent: none"},
  };
  clip.shape_rule =
      "output has input's shape. The bounds are taken in input's dtype first: rounded to the "
      "nearest value of a floating dtype; for an integer dtype min rounds up and max down, and "
      "bounds beyond the dtype's range saturate. Where min > max every element becomes max, as "
      "in NumPy's clip. NaN stays NaN; a NaN bound is refused.";
  clip.reference_cases = clip_cases;
  clip.onnx.versions = {13};
  clip.onnx.attribute_inputs = {{1, "min", 11}, {2, "max", 11}};
  registry.add(std::move(clip));

  OpSchema dropout = activation_schema(
      "Dropout", infer_dropout,
      "Dropout at inference: passes data through unchanged, with a mask of all true (training "
      "mode is supported with a ratio of 0 only, which drops nothing).",
      "data", dropout_cases, 13);
  dropout.num_outputs = 2;
  dropout.attrs = {
      {"ratio", AttrType::kFloat, false, AttrValue(0.5),
       "the probability of dropping an element in training, in [0, 1); no effect at inference"},
      {"training_mode", AttrType::kBool, false, AttrValue(false),
       "true (training) is refused unless ratio is 0"},
      {"seed", AttrType::kInt, false, std::nullopt,
       "the seed of training's random mask; accepted and unused at inference"},
  };
  dropout.inputs = {{"data", "T", floating_dtypes(), "any tensor of a floating dtype", false}};
  dropout.outputs = {{"output", "T", floating_dtypes(), "data", false},
                     {"mask", "bool", {DType::kBool}, "true for every element kept: all", false}};
  dropout.shape_rule = "output and mask have data's shape.";
  // Version 10 takes ratio as an attribute and has no training mode; 12 makes both inputs and
  // adds seed; 13 adds bfloat16. At inference all three pass data through.
  dropout.onnx.versions = {10, 12, 13};
  dropout.onnx.attribute_inputs = {{1, "ratio", 12}, {2, "training_mode", 12}};
  registry.add(std::move(dropout));
}

}  // namespace hxrt::detail
