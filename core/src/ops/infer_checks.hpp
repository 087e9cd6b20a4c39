// Checks shared by the builtin ops' shape inference. Each throws Error(kInvalidArgument) with a
// message "<Op>: ..." that says what the op expects, what it got and, where it can, what to do.
#pragma once

#include <string>

#include "ops/op_schema.hpp"

namespace hxrt::detail {

[[noreturn]] void reject_call(const InferContext& call, const std::string& reason);

// Every input has a dtype arithmetic is defined on: anything but bool.
void require_numeric_inputs(const InferContext& call);
// Every input has the dtype of input 0.
void require_same_dtype(const InferContext& call);
// A dtype read from an attribute is one of kAllDTypes (a plugin can pass any integer).
void require_known_dtype(const InferContext& call, const char* attr_name, DType dtype);

}  // namespace hxrt::detail
