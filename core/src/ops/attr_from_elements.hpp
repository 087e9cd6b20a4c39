// The value of a tensor that an op takes as an attribute: ONNX's attribute inputs (Reshape's
// shape, TopK's k; OnnxForm::attribute_inputs), read when a model is loaded where they are
// constants, or when a run has computed them (GraphNode::attr_inputs).
#pragma once

#include <string>

#include "hxrt/attrs.hpp"
#include "hxrt/dtype.hpp"
#include "hxrt/op_info.hpp"
#include "hxrt/shape.hpp"

namespace hxrt::detail {

// The elements at `data` (`shape`'s count of `dtype`, row-major, in host memory) as an
// attribute of `type`: a list of ints from a tensor of an integer dtype of rank 0 or 1, a
// list of floats from one of a floating dtype; an int, a float or a bool from a tensor of one
// element. `what` names the tensor in errors ("node 'r' (Reshape) input 1 ('shape')");
// Error(kInvalidArgument) says what was expected and found.
AttrValue attr_from_elements(DType dtype, const Shape& shape, const void* data, AttrType type,
                             const std::string& what);

}  // namespace hxrt::detail
