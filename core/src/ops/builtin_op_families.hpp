// The builtin ops, one function per family; add_builtin_ops calls them all.
#pragma once

#include "ops/op_schema.hpp"

namespace hxrt::detail {

void add_matmul_op(OpRegistry& registry);        // MatMul
void add_elementwise_ops(OpRegistry& registry);  // Add, Sub, Mul, Div, AddN, Relu
void add_array_ops(OpRegistry& registry);        // Cast, Identity, Fill
void add_reduction_ops(OpRegistry& registry);    // Sum

}  // namespace hxrt::detail
