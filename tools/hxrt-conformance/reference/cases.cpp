#include "reference/cases.hpp"

#include <algorithm>
#include <sstream>
#include <type_traits>
#include <variant>

#include <hxcommon/stable_hash.hpp>
#include <hxrt/op_reference.hpp>

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
        } else if constexpr (std::is_same_v<T, std::vector<double>>) {
          std::ostringstream text;
          text << "[";
          for (size_t i = 0; i < v.size(); ++i) text << (i > 0 ? ", " : "") << v[i];
          text << "]";
          return text.str();
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

// The core's attribute value as the kit passes it to a kernel (the same alternatives; a dtype
// as the ABI's enum).
AttrValue kit_attr(const hxrt::AttrValue& value) {
  return std::visit(
      [](const auto& v) -> AttrValue {
        if constexpr (std::is_same_v<std::decay_t<decltype(v)>, hxrt::DType>) {
          return static_cast<hx_dtype>(v);
        } else {
          return v;
        }
      },
      value);
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

uint64_t check_seed(uint64_t run_seed, const std::string& check) {
  // Multiplied by an odd constant (the golden ratio's), so that nearby seeds of one check
  // give unrelated streams.
  return run_seed * 0x9E3779B97F4A7C15ull ^ hxcommon::stable_hash(check);
}

HostTensor host_tensor(const hxrt::ReferenceTensor& tensor) {
  return {{static_cast<hx_dtype>(tensor.dtype), tensor.shape.to_vector()}, tensor.values};
}

std::vector<TensorSpec> output_specs(const KernelCase& kernel_case) {
  std::vector<TensorSpec> specs;
  for (const HostTensor& output : kernel_case.expected) specs.push_back(output.spec);
  for (size_t i = 0; i < kernel_case.output_bounds.size() && i < specs.size(); ++i) {
    specs[i].shape = kernel_case.output_bounds[i];
  }
  return specs;
}

std::vector<KernelCase> reference_cases(const std::string& op, hx_dtype dtype,
                                        hx_dtype output_dtype, uint64_t seed) {
  std::vector<KernelCase> cases;
  for (const hxrt::ReferenceCase& reference :
       hxrt::reference_cases(op, static_cast<hxrt::DType>(dtype),
                             static_cast<hxrt::DType>(output_dtype), seed)) {
    KernelCase kernel_case;
    for (const hxrt::ReferenceTensor& input : reference.inputs) {
      kernel_case.inputs.push_back(host_tensor(input));
    }
    for (const auto& [name, value] : reference.attrs.items()) {
      kernel_case.attrs[name] = kit_attr(value);
    }
    for (const hxrt::ReferenceTensor* output : hxrt::expected_outputs(reference)) {
      kernel_case.expected.push_back(host_tensor(*output));
    }
    kernel_case.tolerance = Tolerance{reference.tolerance};
    kernel_case.broadcast = reference.broadcast;
    for (const hxrt::Shape& bound : reference.output_bounds) {
      kernel_case.output_bounds.push_back(bound.to_vector());
    }
    cases.push_back(std::move(kernel_case));
  }
  return cases;
}

}  // namespace hxrt_conformance
