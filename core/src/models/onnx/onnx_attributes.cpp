#include "models/onnx/onnx_attributes.hpp"

#include <onnx/onnx_pb.h>

#include <cmath>
#include <cstring>

#include "hxcommon/element_values.hpp"
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

template <class T>
T element(const TensorValue& value, size_t i) {
  T out;
  std::memcpy(&out, value.bytes.data() + i * sizeof(T), sizeof(T));
  return out;
}

double element_as_double(const TensorValue& value, size_t i) {
  return hxcommon::element_to_double(value.bytes.data(), static_cast<int32_t>(value.dtype), i);
}

// Element i as an int: integers and bools as they are; a float tensor (the spec says int)
// only where it holds a whole number, else Error naming `what`.
int64_t element_as_int(const TensorValue& value, size_t i, const std::string& what) {
  if (value.dtype == DType::kI64) return element<int64_t>(value, i);
  // Exact for the other integer types (but uint64 beyond 2^53, which no count or index is).
  const double number = element_as_double(value, i);
  if (!(std::fabs(number) < 9.2e18) || number != std::floor(number)) {
    refuse_model(what, "must hold whole numbers, as an integer tensor");
  }
  return static_cast<int64_t>(number);
}

// The one element of a tensor that must hold one.
double scalar_of(const TensorValue& value, const std::string& what) {
  if (value.shape.num_elements() != 1) {
    refuse_model(what, "must hold one value, but has shape " + value.shape.to_string());
  }
  return element_as_double(value, 0);
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

AttrValue attr_from_tensor(const TensorValue& value, AttrType type, const std::string& what) {
  switch (type) {
    case AttrType::kInts: {
      if (value.shape.rank() > 1 || (value.dtype != DType::kI64 && value.dtype != DType::kI32)) {
        refuse_model(what, "must be a 1-D tensor of int64 or int32, not " +
                               std::string(dtype_name(value.dtype)) + " of shape " +
                               value.shape.to_string());
      }
      std::vector<int64_t> ints;
      for (size_t i = 0; i < static_cast<size_t>(value.shape.num_elements()); ++i) {
        ints.push_back(element_as_int(value, i, what));
      }
      return ints;
    }
    case AttrType::kFloats: {
      const bool floating = value.dtype == DType::kF32 || value.dtype == DType::kF64 ||
                            value.dtype == DType::kF16 || value.dtype == DType::kBF16;
      if (value.shape.rank() > 1 || !floating) {
        refuse_model(what, "must be a 1-D tensor of a floating type, not " +
                               std::string(dtype_name(value.dtype)) + " of shape " +
                               value.shape.to_string());
      }
      std::vector<double> floats;
      for (size_t i = 0; i < static_cast<size_t>(value.shape.num_elements()); ++i) {
        floats.push_back(element_as_double(value, i));
      }
      return floats;
    }
    case AttrType::kInt:
      scalar_of(value, what);
      return element_as_int(value, 0, what);
    case AttrType::kBool:
      return scalar_of(value, what) != 0;
    case AttrType::kFloat:
      return scalar_of(value, what);
    case AttrType::kDType:
    case AttrType::kString:
      break;
  }
  refuse_model(what, std::string("is an input hxrt cannot take as a ") + attr_type_name(type));
}

}  // namespace hxrt::detail
