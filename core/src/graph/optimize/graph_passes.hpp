// Compile's passes over a graph before it is placed (docs/graphs.md, "Optimisation"), one file
// each, run in this order on one GraphRewrite. Each returns the nodes it changed, as the
// compile log names them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "graph/graph_context.hpp"
#include "graph/optimize/graph_rewrite.hpp"

namespace hxrt::detail {
class KernelCoverage;  // graph/optimize/kernel_coverage.hpp
}

namespace hxrt::detail {

// Identity, and Dropout whose mask nothing reads: bypassed (GraphPasses::remove_identities).
std::vector<std::string> remove_identities(GraphRewrite& graph);

// Nodes of constant inputs, and Shape and Size of values of known shape, computed now
// (GraphPasses::fold_constants). A node whose op fails for its values is left to the runs,
// which report it.
std::vector<std::string> fold_constants(GraphContext& context, GraphRewrite& graph);

// Node `index`, an inference-mode BatchNormalization after a Conv of constant weights, folded
// into that Conv's weights and bias (part of fold_constants). False, changing nothing, for any
// other node.
bool fold_batch_norm_into_conv(GraphContext& context, GraphRewrite& graph, size_t index);

// Gemm + activation into FusedGemm, MatMul + bias into MatMulBias, exact GELU's chain into
// Gelu, LayerNormalization's chain into LayerNormalization, attention's into
// MultiHeadAttention (GraphPasses::fuse_kernels).
// `dynamic`: the dynamic placer places the graph, and may put a node on any device.
std::vector<std::string> fuse_kernels(GraphContext& context, GraphRewrite& graph,
                                      bool dynamic);

// Node `i`, the last Add of the chain exporters write for LayerNormalization before opset 17,
// with the chain made one LayerNormalization node (part of fuse_kernels). False, changing
// nothing, for any other node.
bool fuse_layer_norm(GraphRewrite& graph, KernelCoverage& coverage, size_t i,
                     std::vector<std::string>& fused);

// Node `i`, the Reshape that joins the heads of the attention chain exporters write, with the
// chain made one MultiHeadAttention node (part of fuse_kernels). False, changing nothing, for
// any other node.
bool fuse_attention(GraphRewrite& graph, KernelCoverage& coverage, size_t i,
                    std::vector<std::string>& fused);

// Chains of convolutions and pools of 2-D images kept in blocks of channels between them:
// BlockedConv, BlockedMaxPool, BlockedGlobalAveragePool (GraphPasses::block_channels).
std::vector<std::string> block_channels(GraphContext& context, GraphRewrite& graph,
                                        bool dynamic);

// `graph` after the passes that `options.passes` and the config turn on, each logged at info
// level with the nodes it changed; nullopt where none changes anything.
std::optional<Graph> optimize_graph(GraphContext& context, const Graph& graph,
                                    const std::vector<NodeOutput>& fetches,
                                    const CompileOptions& options);

}  // namespace hxrt::detail
