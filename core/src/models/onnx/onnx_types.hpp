// ONNX's element types (TensorProto.DataType) against hxrt's dtypes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "hxrt/dtype.hpp"

namespace hxrt::detail {

// The dtype of ONNX element type `type`; nullopt for one hxrt has no dtype for (uint8, int8,
// string, complex64, float8, ...).
std::optional<DType> dtype_of_onnx(int32_t type);
// ONNX's name of element type `type` ("UINT8"), or "element type 42" for an unknown value.
std::string onnx_type_name(int32_t type);
// "hxrt reads tensors of FLOAT, DOUBLE, FLOAT16, BFLOAT16, INT32, INT64 and BOOL".
std::string supported_onnx_types();

}  // namespace hxrt::detail
