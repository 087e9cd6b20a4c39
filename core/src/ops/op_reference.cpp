// hxrt/op_reference.hpp: the cases of a core op, from the reference its schema points at.
#include <algorithm>
#include <string>

#include "hxrt/error.hpp"
#include "hxrt/op_reference.hpp"
#include "ops/builtin_registry.hpp"
#include "ops/reference/random_values.hpp"

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
  return schema->reference_cases(type, output_type, random);
}

ReferenceTensor random_reference_tensor(DType dtype, const Shape& shape, uint64_t seed) {
  detail::require_dtype(dtype, "random_reference_tensor", "dtype");
  detail::RandomValues random(seed);
  return random.tensor(dtype, shape);
}

}  // namespace hxrt
