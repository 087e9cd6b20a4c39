// Fusion: a Gemm whose only reader is an activation becomes one FusedGemm node, which applies
// the activation as it writes the product (a oneDNN post-op on the CPU) instead of a second
// pass over the output. The fused node takes the activation's name, so that what reads or
// fetches it is unchanged. A plugin declares the fusion by registering a FusedGemm kernel; the
// pass fuses only where every plugin with kernels for both ops has one for FusedGemm too, so
// that fusing never takes a device from the placer.
#include <map>
#include <set>

#include "graph/optimize/graph_passes.hpp"
#include "ops/fused_activation.hpp"

namespace hxrt::detail {
namespace {

// The plugins with a kernel for `op` at type T and output dtype T.
std::set<std::string> plugins_with(const std::vector<const KernelEntry*>& kernels,
                                   const std::string& op, DType t) {
  std::set<std::string> plugins;
  for (const KernelEntry* kernel : kernels) {
    if (kernel->op == op && kernel->accepts(t, t)) plugins.insert(kernel->plugin);
  }
  return plugins;
}

// Whether some plugin has `fused` at T, and each that has every one of `parts` does.
bool fusion_keeps_devices(const std::vector<const KernelEntry*>& kernels,
                          const std::vector<std::string>& parts, const std::string& fused,
                          DType t) {
  const std::set<std::string> fusing = plugins_with(kernels, fused, t);
  if (fusing.empty()) return false;
  std::set<std::string> running = plugins_with(kernels, parts[0], t);
  for (size_t p = 1; p < parts.size(); ++p) {
    std::set<std::string> also;
    for (const std::string& plugin : plugins_with(kernels, parts[p], t)) {
      if (running.count(plugin) != 0) also.insert(plugin);
    }
    running = std::move(also);
  }
  for (const std::string& plugin : running) {
    if (fusing.count(plugin) == 0) return false;
  }
  return true;
}

}  // namespace

std::vector<std::string> fuse_kernels(GraphContext& context, GraphRewrite& graph) {
  std::vector<std::string> fused;
  std::vector<const KernelEntry*> kernels;  // read once, when a chain is first met
  std::map<std::pair<std::string, DType>, bool> fusable;  // (activation, T) -> answer
  for (size_t i = 0; i < graph.size(); ++i) {
    const GraphNode& activation = graph.node(i);
    if (graph.erased(i) || activation.kind != GraphNode::Kind::kOp ||
        !is_fused_activation(activation.op) || activation.shapes_at_run) {
      continue;
    }
    const size_t g = graph.producer(activation.inputs[0]);
    const GraphNode& gemm = graph.node(g);
    if (gemm.op != "Gemm" || activation.inputs[0].index != 0 || graph.kept(g) ||
        graph.reads_of(g, 0) != 1 || gemm.shapes_at_run ||
        gemm.requested_device != activation.requested_device) {
      continue;
    }
    const DType t = gemm.output_dtypes[0];
    auto known = fusable.find({activation.op, t});
    if (known == fusable.end()) {
      if (kernels.empty()) kernels = context.kernels.all();
      const bool keeps = fusion_keeps_devices(kernels, {"Gemm", activation.op}, "FusedGemm", t);
      known = fusable.emplace(std::make_pair(activation.op, t), keeps).first;
    }
    if (!known->second) continue;
    Attrs attrs = gemm.attrs;
    attrs.set("activation", activation.op);
    if (activation.op == "LeakyRelu") {
      const AttrValue* alpha = activation.attrs.find("alpha");
      attrs.set("activation_alpha", alpha ? *alpha : AttrValue(kLeakyReluDefaultAlpha));
    }
    fused.push_back(gemm.name + " + " + activation.name);
    std::vector<NodeOutput> inputs = gemm.inputs;
    graph.make_op(i, "FusedGemm", std::move(inputs), std::move(attrs));
    graph.erase(g);
  }
  return fused;
}

}  // namespace hxrt::detail
