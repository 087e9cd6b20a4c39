// hxrt/op_reference.hpp: the cases of a core op, from the reference its schema points at.
#include <algorithm>
#include <string>

#include "hxrt/error.hpp"
#include "hxrt/op_reference.hpp"
#include "ops/builtin_registry.hpp"
#include "ops/reference/random_values.hpp"
#include "ops/reference/reference_tensors.hpp"

namespace hxrt::detail {
namespace {

void require_dtype(DType dtype, const char* function, const char* what) {
  const auto known = std::find(std::begin(kAllDTypes), std::end(kAllDTypes), dtype);
  if (known == std::end(kAllDTypes)) {
    throw Error(StatusCode::kInvalidArgument,
                std::string(function) + ": " + what + " " +
                    std::to_string(static_cast<int32_t>(dtype)) +
                    " is no DType; pass one of hxrt::kAllDTypes");
  }
}

// The dtypes the op's shape inference accepts for T, as its schema declares them on every
// argument typed "T".
bool accepts(const OpSchema& schema, DType type) {
  const auto typed_t = [&](const OpArgInfo& arg) {
    return arg.type == "T" &&
           std::find(arg.dtypes.begin(), arg.dtypes.end(), type) != arg.dtypes.end();
  };
  return std::any_of(schema.inputs.begin(), schema.inputs.end(), typed_t) ||
         std::any_of(schema.outputs.begin(), schema.outputs.end(), typed_t);
}

// The references compute in double; an integer result outside its dtype (uint8's 3 - 5, int8's
// 20 * 20) is what the kernel's wrapping arithmetic gives modulo 2^bits. Wrapping here, once,
// keeps every op's reference free of it.
void wrap_integer_values(ReferenceTensor& output) {
  if (!is_integer(output.dtype)) return;
  for (double& value : output.values) value = round_to(value, output.dtype);
}

void wrap_integer_outputs(std::vector<ReferenceCase>& cases) {
  for (ReferenceCase& call : cases) {
    wrap_integer_values(call.expected);
    for (ReferenceTensor& output : call.more_expected) wrap_integer_values(output);
  }
}

}  // namespace
}  // namespace hxrt::detail

namespace hxrt {

std::vector<ReferenceCase> reference_cases(const std::string& op, DType type, DType output_type,
                                           uint64_t seed) {
  const detail::OpSchema* schema = detail::builtin_registry().find(op);
  if (schema == nullptr || schema->reference_cases == nullptr) {
    throw Error(StatusCode::kNotFound, "reference_cases: '" + op +
                                           "' is not a core op; hxrt::core_ops() lists them");
  }
  detail::require_dtype(type, "reference_cases", "type");
  detail::require_dtype(output_type, "reference_cases", "output_type");
  if (!detail::accepts(*schema, type)) return {};
  detail::RandomValues random(seed);
  std::vector<ReferenceCase> cases = schema->reference_cases(type, output_type, random);
  detail::wrap_integer_outputs(cases);
  return cases;
}

ReferenceTensor random_reference_tensor(DType dtype, const Shape& shape, uint64_t seed) {
  detail::require_dtype(dtype, "random_reference_tensor", "dtype");
  detail::RandomValues random(seed);
  return random.tensor(dtype, shape);
}

}  // namespace hxrt
