// ONNX's attributes as hxrt's attribute values of the types an op's schema declares. (The
// inputs an op takes as attributes: ops/attr_from_elements.hpp.)
#pragma once

#include <string>

#include "hxrt/attrs.hpp"
#include "hxrt/op_info.hpp"

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

}  // namespace hxrt::detail
