#include "models/onnx/onnx_attributes.hpp"

#include <onnx/onnx_pb.h>

#include "hxrt/error.hpp"
#include "models/onnx/model_refusal.hpp"
#include "models/onnx/onnx_types.hpp"

namespace hxrt::detail {
namespace {

const char* onnx_attribute_type(const onnx::AttributeProto& attribute) {
  switch (attribute.type()) {
    case onnx::AttributeProto::FLOAT: return "FLOAT";
    case onnx::AttributeProto::INT: return "INT";
    case onnx::AttributeProto::STRING: return "STRING";
    case onnx::AttributeProto::TENSOR: return "TENSOR";
    case onnx::AttributeProto::GRAPH: return "GRAPH";
    case onnx::AttributeProto::FLOATS: return "FLOATS";
    case onnx::AttributeProto::INTS: return "INTS";
    case onnx::AttributeProto::STRINGS: return "STRINGS";
    default: return "another type";
  }
}

}  // namespace

AttrValue attr_from_onnx(const onnx::AttributeProto& attribute, AttrType type,
                         const std::string& what) {
  const auto expect = [&](onnx::AttributeProto::AttributeType expected, const char* name) {
    if (attribute.type() != expected) {
      refuse_model(what, std::string("hxrt reads it as ") + name + ", but the model gives " +
                             onnx_attribute_type(attribute));
    }
  };
  switch (type) {
    case AttrType::kInt:
      expect(onnx::AttributeProto::INT, "INT");
      return attribute.i();
    case AttrType::kBool:
      expect(onnx::AttributeProto::INT, "INT (0 or 1)");
      if (attribute.i() != 0 && attribute.i() != 1) {
        refuse_model(what, "must be 0 or 1, not " + std::to_string(attribute.i()));
      }
      return attribute.i() == 1;
    case AttrType::kDType: {
      expect(onnx::AttributeProto::INT, "INT (an element type)");
      const std::optional<DType> dtype =
          attribute.i() >= INT32_MIN && attribute.i() <= INT32_MAX
              ? dtype_of_onnx(static_cast<int32_t>(attribute.i()))
              : std::nullopt;
      if (!dtype) {
        refuse_model(what, "names " + onnx_type_name(static_cast<int32_t>(attribute.i())) + "; " +
                               supported_onnx_types());
      }
      return *dtype;
    }
    case AttrType::kFloat:
      expect(onnx::AttributeProto::FLOAT, "FLOAT");
      return static_cast<double>(attribute.f());
    case AttrType::kString:
      expect(onnx::AttributeProto::STRING, "STRING");
      return attribute.s();
    case AttrType::kInts:
      expect(onnx::AttributeProto::INTS, "INTS");
      return std::vector<int64_t>(attribute.ints().begin(), attribute.ints().end());
    case AttrType::kFloats:
      expect(onnx::AttributeProto::FLOATS, "FLOATS");
      return std::vector<double>(attribute.floats().begin(), attribute.floats().end());
  }
  refuse_model(what, "has a type hxrt cannot read");
}

}  // namespace hxrt::detail
