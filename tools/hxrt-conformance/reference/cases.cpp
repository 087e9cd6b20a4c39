#include "reference/cases.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <sstream>
#include <type_traits>
#include <variant>

#include "reference/case_builders.hpp"

namespace hxrt_conformance {
namespace {

std::string attr_text(const AttrValue& value) {
  return std::visit(
      [](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, bool>) {
          return v ? "true" : "false";
        } else if constexpr (std::is_same_v<T, hx_dtype>) {
          return dtype_name(v);
        } else if constexpr (std::is_same_v<T, std::vector<int64_t>>) {
          return shape_text(v);
        } else if constexpr (std::is_same_v<T, std::string>) {
          return "\"" + v + "\"";
        } else {
          std::ostringstream text;
          text << v;
          return text.str();
        }
      },
      value);
}

std::string inputs_text(const std::vector<HostTensor>& inputs) {
  if (inputs.empty()) return "";
  const bool one_shape = std::all_of(inputs.begin(), inputs.end(), [&](const HostTensor& input) {
    return input.spec.shape == inputs.front().spec.shape;
  });
  if (inputs.size() == 1) return "on shape " + shape_text(inputs.front().spec.shape);
  if (inputs.size() > 2 && one_shape) {
    return "on " + std::to_string(inputs.size()) + " inputs of shape " +
           shape_text(inputs.front().spec.shape);
  }
  std::string text = "on shapes ";
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (i > 0) text += i + 1 == inputs.size() ? " and " : ", ";
    text += shape_text(inputs[i].spec.shape);
  }
  return text;
}

using CaseBuilder =
    std::function<std::vector<KernelCase>(hx_dtype dtype, hx_dtype output_dtype, RandomInputs&)>;

// One entry per core op (hxrt::core_ops(); tests/conformance checks that none is missing).
const std::map<std::string, CaseBuilder>& case_builders() {
  static const std::map<std::string, CaseBuilder> builders = {
      {"MatMul", [](hx_dtype t, hx_dtype, RandomInputs& r) { return matmul_cases(t, r); }},
      {"Add",
       [](hx_dtype t, hx_dtype, RandomInputs& r) { return binary_cases(BinaryOp::kAdd, t, r); }},
      {"Sub",
       [](hx_dtype t, hx_dtype, RandomInputs& r) { return binary_cases(BinaryOp::kSub, t, r); }},
      {"Mul",
       [](hx_dtype t, hx_dtype, RandomInputs& r) { return binary_cases(BinaryOp::kMul, t, r); }},
      {"Div",
       [](hx_dtype t, hx_dtype, RandomInputs& r) { return binary_cases(BinaryOp::kDiv, t, r); }},
      {"AddN", [](hx_dtype t, hx_dtype, RandomInputs& r) { return add_n_cases(t, r); }},
      {"Relu", [](hx_dtype t, hx_dtype, RandomInputs& r) { return relu_cases(t, r); }},
      {"Sum", [](hx_dtype t, hx_dtype, RandomInputs& r) { return sum_cases(t, r); }},
      {"Cast", [](hx_dtype t, hx_dtype out, RandomInputs& r) { return cast_cases(t, out, r); }},
      {"Fill", [](hx_dtype t, hx_dtype, RandomInputs& r) { return fill_cases(t, r); }},
      {"Identity", [](hx_dtype t, hx_dtype, RandomInputs& r) { return identity_cases(t, r); }},
  };
  return builders;
}

}  // namespace

std::string case_text(const KernelCase& kernel_case) {
  std::string text = inputs_text(kernel_case.inputs);
  std::string attrs;
  for (const auto& [name, value] : kernel_case.attrs) {
    attrs += (attrs.empty() ? "" : ", ") + name + "=" + attr_text(value);
  }
  if (!attrs.empty()) text += (text.empty() ? "with " : " with ") + attrs;
  return text;
}

bool has_reference(const std::string& op) { return case_builders().count(op) != 0; }

bool core_runs_op_with(const std::string& op, hx_dtype dtype) {
  return dtype != HX_DTYPE_BOOL || op == "Cast" || op == "Fill" || op == "Identity";
}

std::vector<KernelCase> reference_cases(const std::string& op, hx_dtype dtype,
                                        hx_dtype output_dtype, RandomInputs& random) {
  return case_builders().at(op)(dtype, output_dtype, random);
}

}  // namespace hxrt_conformance
