#include "ops/fused_activation.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "ops/infer_checks.hpp"

namespace hxrt::detail {

const std::vector<std::string>& fused_activations() {
  static const std::vector<std::string> names = {"Relu", "LeakyRelu", "Sigmoid", "Tanh",
                                                  "Gelu"};
  return names;
}

bool is_fused_activation(const std::string& op) {
  const std::vector<std::string>& names = fused_activations();
  return std::find(names.begin(), names.end(), op) != names.end();
}

double apply_fused_activation(const std::string& activation, double alpha, double x) {
  if (activation == "Relu") return x > 0 ? x : 0;
  if (activation == "LeakyRelu") return x >= 0 ? x : alpha * x;
  if (activation == "Sigmoid") return 1 / (1 + std::exp(-x));
  if (activation == "Gelu") return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0)));
  return std::tanh(x);
}

std::string fused_activation_list() {
  std::string names;
  for (const std::string& name : fused_activations()) {
    names += (names.empty() ? "" : ", ") + name;
  }
  return names;
}

void check_fused_activation(const InferContext& call, bool required) {
  if (required) required_attr(call, "activation", "a string");
  const std::string activation = attr_string(call, "activation", "");
  if (!is_fused_activation(activation) && (required || !activation.empty())) {
    reject_call(call, "attribute 'activation' is '" + activation + "'; it is one of " +
                          fused_activation_list());
  }
  attr_float(call, "activation_alpha", kLeakyReluDefaultAlpha);  // type checks
}

void add_activation_attrs(OpSchema& schema, const std::string& applied_to, bool required) {
  schema.attrs.push_back({"activation", AttrType::kString, required, std::nullopt,
                          fused_activation_list() + ", applied to " + applied_to +
                              (required ? "" : "; absent or \"\": none")});
  schema.attrs.push_back({"activation_alpha", AttrType::kFloat, false,
                          AttrValue(kLeakyReluDefaultAlpha), "LeakyRelu's slope below 0"});
}

OpSchema fused_schema(const OpSchema& base, const std::string& name, InferFn infer,
                      ReferenceCasesFn cases) {
  OpSchema schema = base;
  schema.name = name;
  schema.infer = infer;
  schema.summary = base.name + ", then an activation, as one kernel: what the fusion pass "
                   "makes of a " + base.name + " whose only reader is one of " +
                   fused_activation_list() + ", on devices whose plugins register " + name + ".";
  add_activation_attrs(schema, base.name + "'s result", true);
  schema.shape_rule = base.shape_rule + " The activation is applied in the accumulation type "
                      "before Y is rounded.";
  schema.reference_cases = cases;
  schema.onnx = {};
  return schema;
}

std::vector<ReferenceCase> with_each_activation(ReferenceCasesFn base_cases, DType type,
                                                DType output_type, RandomValues& random) {
  std::vector<ReferenceCase> cases;
  for (const std::string& activation : fused_activations()) {
    const double alpha = activation == "LeakyRelu" ? 0.125 : kLeakyReluDefaultAlpha;
    for (ReferenceCase& fused : base_cases(type, output_type, random)) {
      fused.attrs.set("activation", activation);
      if (activation == "LeakyRelu") fused.attrs.set("activation_alpha", alpha);
      for (double& value : fused.expected.values) {
        value = apply_fused_activation(activation, alpha, value);
      }
      cases.push_back(std::move(fused));
    }
  }
  return cases;
}

}  // namespace hxrt::detail
