// Runs the passes compile's options and the config turn on, and logs and traces what each
// changed.
#include "graph/optimize/graph_passes.hpp"
#include "ops/fused_activation.hpp"
#include "trace/graph_pass_trace.hpp"
#include "trace/span_timer.hpp"

namespace hxrt::detail {
namespace {

// "Graph pass fold_constants: 3 nodes (a, b, c)", naming at most the first ten.
void log_pass(Logger& logger, const char* pass, const std::vector<std::string>& changed) {
  if (changed.empty() || !logger.enabled(LogLevel::kInfo)) return;
  constexpr size_t kNamed = 10;
  std::string line = std::string("Graph pass ") + pass + ": " +
                     std::to_string(changed.size()) + (changed.size() == 1 ? " node" : " nodes") +
                     " (";
  for (size_t i = 0; i < changed.size() && i < kNamed; ++i) {
    line += (i == 0 ? "" : ", ") + changed[i];
  }
  if (changed.size() > kNamed) line += ", ...";
  logger.log(LogLevel::kInfo, line + ")");
}

// Whether some node is one a pass may start from (remove_identities: Identity, Dropout;
// fold_constants: Shape, Size, BatchNormalization, a node of constant inputs; fuse_kernels:
// an activation after Gemm or Conv, GELU's Erf, a MatMul before its bias, LayerNormalization's
// ReduceMean; block_channels: a Conv): most graphs built by hand have none, and are then not
// copied.
bool may_change(const Graph& graph) {
  for (const GraphNode& node : graph.nodes()) {
    if (node.kind != GraphNode::Kind::kOp) continue;
    if (node.op == "Identity" || node.op == "Dropout" || node.op == "Shape" ||
        node.op == "Size" || node.op == "BatchNormalization" || node.op == "Erf" ||
        node.op == "Conv" || node.op == "MatMul" || node.op == "ReduceMean" ||
        is_fused_activation(node.op)) {
      return true;
    }
    bool all_constant = true;
    for (const NodeOutput& input : node.inputs) {
      all_constant = all_constant && graph.find(input.node)->kind == GraphNode::Kind::kConstant;
    }
    if (all_constant) return true;
  }
  return false;
}

}  // namespace

std::optional<Graph> optimize_graph(GraphContext& context, const Graph& graph,
                                    const std::vector<NodeOutput>& fetches,
                                    const CompileOptions& options) {
  const Config::GraphPassSwitches& config = context.config.graph_passes;
  const GraphPasses& asked = options.passes;
  const bool identities = asked.remove_identities.value_or(config.remove_identities);
  const bool constants = asked.fold_constants.value_or(config.fold_constants);
  const bool fusion = asked.fuse_kernels.value_or(config.fuse_kernels);
  const bool blocks = asked.block_channels.value_or(config.block_channels);
  if ((!identities && !constants && !fusion && !blocks) || !may_change(graph)) {
    return std::nullopt;
  }
  GraphRewrite rewrite(graph, fetches, options);
  bool changed = false;
  auto run = [&](const char* pass, auto&& pass_function) {
    const SpanTimer span;
    const std::vector<std::string> nodes = pass_function();
    if (span.on()) trace_graph_pass(pass, span.start_ns(), nodes);
    log_pass(context.logger, pass, nodes);
    changed = changed || !nodes.empty();
  };
  if (identities) run("remove_identities", [&] { return remove_identities(rewrite); });
  if (constants) run("fold_constants", [&] { return fold_constants(context, rewrite); });
  const bool dynamic = options.placer.value_or(context.config.placer) == GraphPlacer::kDynamic;
  if (fusion) run("fuse_kernels", [&] { return fuse_kernels(context, rewrite, dynamic); });
  if (blocks) run("block_channels", [&] { return block_channels(context, rewrite, dynamic); });
  if (!changed) return std::nullopt;
  return std::move(rewrite).build();
}

}  // namespace hxrt::detail
