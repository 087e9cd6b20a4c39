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

// Whether a tensor of `dtype` can give an attribute of `type`: a list of ints from integers,
// a list of floats from a floating dtype, an int (of a whole number), a float or a bool from
// any dtype; a dtype or a string attribute from none. attr_from_elements checks the shape and
// the values too.
bool can_give_attribute(DType dtype, AttrType type);

// The elements at `data` (`shape`'s count of `dtype`, row-major, in host memory) as an
// attribute of `type`: a list from a tensor of rank 0 or 1, an int, a float or a bool from
// a tensor of one element, of the dtypes can_give_attribute takes. `what` names the tensor in errors ("node 'r' (Reshape) input 1 ('shape')");
// Error(kInvalidArgument) says what was expected and found.
AttrValue attr_from_elements(DType dtype, const Shape& shape, const void* data, AttrType type,
                             const std::string& what);

}  // namespace hxrt::detail
