#include "ops/spec_output_dtypes.hpp"

#include <algorithm>
#include <string>

#include "ops/declared_attr.hpp"

namespace hxrt::detail {
namespace {

// The value of dtype attribute `name`: as set, else the schema's default.
std::optional<DType> dtype_attribute(const OpSchema& schema, const Attrs& attrs,
                                     const std::string& name) {
  const AttrValue* value = attrs.find(name);
  const OpAttrInfo* declared = declared_attr(schema, name);
  if (value == nullptr && declared != nullptr && declared->default_value) {
    value = &*declared->default_value;
  }
  if (value == nullptr) return std::nullopt;
  const DType* dtype = std::get_if<DType>(value);
  return dtype != nullptr ? std::optional<DType>(*dtype) : std::nullopt;
}

std::optional<DType> type_parameter(const OpSchema& schema,
                                    const std::vector<DType>& input_dtypes, const Attrs& attrs) {
  const TypeParameter& t = schema.type_parameter;
  switch (t.source) {
    case TypeParameter::Source::kInput:
      if (t.input >= 0 && static_cast<size_t>(t.input) < input_dtypes.size()) {
        return input_dtypes[static_cast<size_t>(t.input)];
      }
      return std::nullopt;
    case TypeParameter::Source::kAttribute:
      return dtype_attribute(schema, attrs, t.attribute);
    case TypeParameter::Source::kOutput:
      break;
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::vector<DType>> spec_output_dtypes(const OpSchema& schema,
                                                     const std::vector<DType>& input_dtypes,
                                                     const Attrs& attrs, int num_outputs) {
  if (schema.outputs.empty()) return std::nullopt;
  std::vector<DType> dtypes;
  for (int i = 0; i < num_outputs; ++i) {
    // A variadic last output types every output from it on.
    const size_t position = std::min(static_cast<size_t>(i), schema.outputs.size() - 1);
    const OpArgInfo& output = schema.outputs[position];
    std::optional<DType> dtype;
    if (output.type == "T") {
      dtype = type_parameter(schema, input_dtypes, attrs);
    } else if (output.dtypes.size() == 1) {
      dtype = output.dtypes.front();
    } else {
      dtype = dtype_attribute(schema, attrs, output.type);
    }
    if (!dtype) return std::nullopt;
    dtypes.push_back(*dtype);
  }
  return dtypes;
}

}  // namespace hxrt::detail
