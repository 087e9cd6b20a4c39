// Checks shared by the builtin ops' shape inference. Each throws Error(kInvalidArgument) with a
// message "<Op>: ..." that says what the op expects, what it got and, where it can, what to do.
#pragma once

#include <string>
#include <vector>

#include "ops/op_schema.hpp"

namespace hxrt::detail {

// The dtypes arithmetic is defined on: every dtype but bool and the 8-bit floats. The
// specifications and require_numeric_inputs both use it.
bool is_numeric(DType dtype);
const std::vector<DType>& numeric_dtypes();
// f32, f64, f16 and bf16: the dtypes of the transcendental and rounding functions (Exp, Floor).
const std::vector<DType>& floating_dtypes();
// Every dtype, in ABI order.
const std::vector<DType>& all_dtypes();

[[noreturn]] void reject_call(const InferContext& call, const std::string& reason);

// Every input's dtype is one of `accepted`.
void require_inputs_in(const InferContext& call, const std::vector<DType>& accepted);
// Every input is numeric.
void require_numeric_inputs(const InferContext& call);
// Every input has the dtype of input 0.
void require_same_dtype(const InferContext& call);
// ONNX's int flags (ceil_mode, largest, ...): the attribute `name` (default `default_value`)
// as a bool; a value other than 0 or 1 is rejected.
bool int_flag(const InferContext& call, const char* name, int64_t default_value);
// A dtype read from an attribute is one of kAllDTypes (a plugin can pass any integer).
void require_known_dtype(const InferContext& call, const char* attr_name, DType dtype);

// The whole shape inference of an element-wise function of one input, y of x's dtype and
// shape: for x of a numeric dtype (Relu, Neg) and for x of a floating one (Exp).
void infer_numeric_unary(const InferContext& call, TensorMeta* outputs);
void infer_floating_unary(const InferContext& call, TensorMeta* outputs);

}  // namespace hxrt::detail
