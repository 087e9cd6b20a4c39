#include "models/onnx/onnx_types.hpp"

#include <onnx/onnx_pb.h>

namespace hxrt::detail {
namespace {

// ONNX's 8-bit floats (onnx 1.14's element types 17 to 20), which the onnx library of Debian
// (1.12) predates: by number.
constexpr int32_t kOnnxFloat8E4M3FN = 17;
constexpr int32_t kOnnxFloat8E4M3FNUZ = 18;
constexpr int32_t kOnnxFloat8E5M2 = 19;
constexpr int32_t kOnnxFloat8E5M2FNUZ = 20;

}  // namespace

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
    case kOnnxFloat8E4M3FN: return DType::kF8E4M3FN;
    case kOnnxFloat8E4M3FNUZ: return DType::kF8E4M3FNUZ;
    case kOnnxFloat8E5M2: return DType::kF8E5M2;
    case kOnnxFloat8E5M2FNUZ: return DType::kF8E5M2FNUZ;
    default: return std::nullopt;
  }
}

std::string onnx_type_name(int32_t type) {
  if (onnx::TensorProto::DataType_IsValid(type)) {
    return onnx::TensorProto::DataType_Name(static_cast<onnx::TensorProto::DataType>(type));
  }
  switch (type) {
    case kOnnxFloat8E4M3FN: return "FLOAT8E4M3FN";
    case kOnnxFloat8E4M3FNUZ: return "FLOAT8E4M3FNUZ";
    case kOnnxFloat8E5M2: return "FLOAT8E5M2";
    case kOnnxFloat8E5M2FNUZ: return "FLOAT8E5M2FNUZ";
    case 21: return "UINT4";
    case 22: return "INT4";
    default: break;
  }
  return "element type " + std::to_string(type);
}

std::string supported_onnx_types() {
  return "hxrt reads tensors of FLOAT, DOUBLE, FLOAT16, BFLOAT16, FLOAT8E4M3FN, FLOAT8E4M3FNUZ, "
         "FLOAT8E5M2, FLOAT8E5M2FNUZ, INT8, UINT8, INT16, UINT16, INT32, UINT32, INT64, UINT64 "
         "and BOOL";
}

}  // namespace hxrt::detail
