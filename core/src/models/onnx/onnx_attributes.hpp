// ONNX's attributes, and the constant inputs an op takes as attributes (OnnxForm), as hxrt's
// attribute values of the types an op's schema declares.
#pragma once

#include <string>

#include "hxrt/attrs.hpp"
#include "hxrt/op_info.hpp"
#include "models/onnx/tensor_proto.hpp"

namespace onnx {
class AttributeProto;
}

namespace hxrt::detail {

// `attribute` as a value of `type`: INT as an int, a bool (0 or 1) or a dtype (an ONNX element
// type), FLOAT as a float, INTS and FLOATS as lists, STRING as a string. `what` names it in
// errors ("node 'conv1' (Conv): attribute 'pads'"); Error(kInvalidArgument) says what was
// expected and found.
AttrValue attr_from_onnx(const onnx::AttributeProto& attribute, AttrType type,
                         const std::string& what);

// The value of a constant input as an attribute of `type`: a list of ints from a tensor of
// int32 or int64 of rank 0 or 1, a list of floats from one of a floating dtype; an int, a
// float or a bool from a tensor of one element.
AttrValue attr_from_tensor(const TensorValue& value, AttrType type, const std::string& what);

}  // namespace hxrt::detail
