// Chains of convolutions and pools kept in blocks of channels (ops/channel_blocks.hpp): a Conv
// or FusedConv of 2-D images becomes BlockedConv, and a MaxPool or GlobalAveragePool that
// reads one becomes BlockedMaxPool or BlockedGlobalAveragePool, so that what passes between
// them stays [N, C / 16, H, W, 16] and nothing reorders it on the way, as ONNX Runtime's
// NCHWc transformer does. A node whose output another op reads, or that is fetched, writes it
// plain (plain_output), and a BlockedConv reads a plain image, so the graph around the chain
// is unchanged. Where the chain goes to a device whose plugin registers the blocked ops
// (KernelCoverage), as fusion does.
#include <string>
#include <vector>

#include "graph/optimize/graph_passes.hpp"
#include "graph/optimize/kernel_coverage.hpp"
#include "ops/channel_blocks.hpp"

namespace hxrt::detail {
namespace {

// The blocked op of `op`: "" for an op that has none.
std::string blocked_op(const std::string& op) {
  if (op == "Conv" || op == "FusedConv") return "BlockedConv";
  if (op == "MaxPool") return "BlockedMaxPool";
  if (op == "GlobalAveragePool") return "BlockedGlobalAveragePool";
  return "";
}

bool is_conv(const GraphNode& node) { return node.op == "Conv" || node.op == "FusedConv"; }

int64_t int_attr(const GraphNode& node, const char* name, int64_t absent) {
  const AttrValue* value = node.attrs.find(name);
  return value != nullptr ? std::get<int64_t>(*value) : absent;
}

// Whether node `index` could run blocked at all: f32 2-D images of one output, every shape
// known, a MaxPool without ceil_mode's extended window (which oneDNN's pools do not take), on
// a device whose plugin has the blocked op.
bool blockable(const GraphRewrite& graph, KernelCoverage& coverage, size_t index) {
  const GraphNode& node = graph.node(index);
  if (graph.erased(index) || node.kind != GraphNode::Kind::kOp || node.shapes_at_run) {
    return false;
  }
  const std::string op = blocked_op(node.op);
  if (op.empty() || node.output_dtypes.size() != 1 || node.output_dtypes[0] != DType::kF32 ||
      node.output_shapes[0].rank() != 4) {
    return false;
  }
  const auto shape_of = [&](const NodeOutput& output) -> const Shape& {
    return graph.node(graph.producer(output)).output_shapes[static_cast<size_t>(output.index)];
  };
  if (shape_of(node.inputs[0]).rank() != 4 ||
      (is_conv(node) && shape_of(node.inputs[1]).rank() != 4)) {
    return false;
  }
  if (node.op == "MaxPool" && (int_attr(node, "ceil_mode", 0) != 0 ||
                               int_attr(node, "num_outputs", 1) != 1)) {
    return false;
  }
  return coverage.fusable({node.op}, op, DType::kF32, node.requested_device);
}

// Whether every reader of node `index` is in `blocked` and reads it as its image (input 0)
// only, and nothing names it: then its output may stay in blocks.
bool only_blocked_readers(const GraphRewrite& graph, size_t index,
                          const std::vector<bool>& blocked) {
  if (graph.kept(index)) return false;
  const std::vector<size_t> readers = graph.readers(index);
  if (readers.empty()) return false;
  const std::string& name = graph.node(index).name;
  for (size_t reader : readers) {
    const GraphNode& node = graph.node(reader);
    if (!blocked[reader] || !node.attr_inputs.empty()) return false;
    for (size_t i = 1; i < node.inputs.size(); ++i) {
      if (node.inputs[i].node == name) return false;
    }
  }
  return true;
}

}  // namespace

std::vector<std::string> block_channels(GraphContext& context, GraphRewrite& graph,
                                        bool dynamic) {
  KernelCoverage coverage(context, dynamic);
  const size_t size = graph.size();
  std::vector<bool> blocked(size, false);
  for (size_t i = 0; i < size; ++i) blocked[i] = blockable(graph, coverage, i);
  // A pool runs blocked only on a blocked image; dropping one may leave its producer's output
  // plain, and so another pool: until nothing changes.
  std::vector<bool> blocked_out(size, false);
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 0; i < size; ++i) {
      blocked_out[i] = blocked[i] && only_blocked_readers(graph, i, blocked);
    }
    for (size_t i = 0; i < size; ++i) {
      if (!blocked[i] || is_conv(graph.node(i))) continue;
      if (!blocked_out[graph.producer(graph.node(i).inputs[0])]) {
        blocked[i] = false;
        changed = true;
      }
    }
  }
  std::vector<std::string> changed;
  for (size_t i = 0; i < size; ++i) {
    // A convolution of plain image to plain output gains nothing from blocks.
    if (!blocked[i] || (is_conv(graph.node(i)) && !blocked_out[i] &&
                        !blocked_out[graph.producer(graph.node(i).inputs[0])])) {
      continue;
    }
    const GraphNode& node = graph.node(i);
    Attrs attrs;
    for (const auto& [name, value] : node.attrs.items()) {
      if (name != "num_outputs" && name != "storage_order") attrs.set(name, value);
    }
    if (!is_conv(node)) attrs.set("channels", node.output_shapes[0][1]);
    if (!blocked_out[i]) attrs.set("plain_output", int64_t{1});
    const Shape plain = node.output_shapes[0];
    changed.push_back(node.name);
    std::vector<NodeOutput> inputs = node.inputs;
    graph.make_op(i, blocked_op(node.op), std::move(inputs), std::move(attrs));
    if (blocked_out[i]) graph.set_output_shape(i, 0, blocked_shape(plain, kChannelBlock));
  }
  return changed;
}

}  // namespace hxrt::detail
