#include "models/onnx/onnx_types.hpp"

#include <onnx/onnx_pb.h>

namespace hxrt::detail {

std::optional<DType> dtype_of_onnx(int32_t type) {
  switch (type) {
    case onnx::TensorProto::FLOAT: return DType::kF32;
    case onnx::TensorProto::DOUBLE: return DType::kF64;
    case onnx::TensorProto::FLOAT16: return DType::kF16;
    case onnx::TensorProto::BFLOAT16: return DType::kBF16;
    case onnx::TensorProto::INT32: return DType::kI32;
    case onnx::TensorProto::INT64: return DType::kI64;
    case onnx::TensorProto::BOOL: return DType::kBool;
    case onnx::TensorProto::INT8: return DType::kI8;
    case onnx::TensorProto::UINT8: return DType::kU8;
    case onnx::TensorProto::INT16: return DType::kI16;
    case onnx::TensorProto::UINT16: return DType::kU16;
    case onnx::TensorProto::UINT32: return DType::kU32;
    case onnx::TensorProto::UINT64: return DType::kU64;
    default: return std::nullopt;
  }
}

std::string onnx_type_name(int32_t type) {
  if (onnx::TensorProto::DataType_IsValid(type)) {
    return onnx::TensorProto::DataType_Name(static_cast<onnx::TensorProto::DataType>(type));
  }
  return "element type " + std::to_string(type);
}

std::string supported_onnx_types() {
  return "hxrt reads tensors of FLOAT, DOUBLE, FLOAT16, BFLOAT16, INT8, UINT8, INT16, UINT16, "
         "INT32, UINT32, INT64, UINT64 and BOOL";
}

}  // namespace hxrt::detail
