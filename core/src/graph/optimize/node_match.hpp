// What the fusion passes ask of the nodes around a chain they match (fuse_kernels.cpp,
// fuse_layer_norm.cpp).
#pragma once

#include <optional>
#include <string>

#include "graph/optimize/graph_rewrite.hpp"

namespace hxrt::detail {

// Node `inner` may vanish into a fusion whose last node is `outer`: nothing else reads it,
// nothing names it, and it asks for the device `outer` asks for.
bool absorbable(const GraphRewrite& graph, size_t inner, size_t outer);

// Whether node `index` is a node of `op` (kNone is none).
bool is_op(const GraphRewrite& graph, size_t index, const char* op);

// The value of `output` where it is a constant of one f32 element; nullopt otherwise.
std::optional<double> scalar_value(const GraphRewrite& graph, const NodeOutput& output);

// Whether `output` is a constant of one f32 element within 1e-6 of `value`.
bool is_scalar(const GraphRewrite& graph, const NodeOutput& output, double value);

// Of binary node `index`, the input other than a scalar constant `value`; nullptr when
// neither input is that constant.
const NodeOutput* other_than_scalar(const GraphRewrite& graph, size_t index, double value);

const Shape& shape_of(const GraphRewrite& graph, const NodeOutput& output);
DType dtype_of(const GraphRewrite& graph, const NodeOutput& output);

bool same_output(const NodeOutput& a, const NodeOutput& b);

}  // namespace hxrt::detail
