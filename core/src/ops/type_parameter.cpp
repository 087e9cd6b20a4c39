#include "hxrt/error.hpp"
#include "ops/op_schema.hpp"

namespace hxrt::detail {

namespace {

// The declared default of T's attribute; registration made sure it is a dtype attribute with
// a default or a required one (which infer_outputs has then seen present).
DType attribute_default(const OpSchema& schema, const std::string& name) {
  for (const OpAttrInfo& attr : schema.attrs) {
    if (attr.name == name && attr.default_value) return std::get<DType>(*attr.default_value);
  }
  throw Error(StatusCode::kInternal, schema.name + ": T's attribute '" + name +
                                         "' is absent and declares no default");
}

}  // namespace

DType type_parameter(const OpSchema& schema, const InferContext& call, const TensorMeta* outputs) {
  const TypeParameter& t = schema.type_parameter;
  switch (t.source) {
    case TypeParameter::Source::kInput:
      return call.inputs[t.input].dtype;
    case TypeParameter::Source::kAttribute:
      if (!call.attrs.find(t.attribute)) return attribute_default(schema, t.attribute);
      // Present: the reader checks its type (the default it is given is never used).
      return attr_dtype(call, t.attribute.c_str(), DType::kF32);
    case TypeParameter::Source::kOutput:
      break;
  }
  return outputs[0].dtype;
}

}  // namespace hxrt::detail
