// ONNX's TensorProto (an initializer, a Constant's value) as the bytes of an hxrt tensor.
#pragma once

#include <string>

#include "hxrt/dtype.hpp"
#include "hxrt/shape.hpp"

namespace onnx {
class TensorProto;
}

namespace hxrt::detail {

// A tensor's value read from a model: its elements in hxrt's layout (row-major, little-endian,
// bools one byte each, 0 or 1).
struct TensorValue {
  DType dtype = DType::kF32;
  Shape shape;
  std::string bytes;
};

// `tensor`'s value. `what` names it in errors ("initializer 'fc.weight'"). Data stored
// externally is read from the file its "location" names, relative to `external_dir`, which
// must hold it (no absolute path, no "..", no link out of it); external data with an empty
// `external_dir` is refused. Error(kInvalidArgument) for an element type hxrt has no dtype
// for, a negative or overflowing shape, data of the wrong length, and an unreadable external
// file, each named.
TensorValue read_tensor_proto(const onnx::TensorProto& tensor, const std::string& what,
                              const std::string& external_dir);

}  // namespace hxrt::detail
