// Fusion: chains of nodes that one kernel computes in a single pass over the data.
// - Gemm or Conv whose only reader is an activation -> FusedGemm or FusedConv, which applies
//   the activation as it writes its output (a oneDNN post-op on the CPU) instead of a second
//   pass over it.
// - The chain exporters write for exact GELU, x * (erf(x / sqrt 2) + 1) * 0.5 as Div, Erf, Add,
//   Mul, Mul -> Gelu: one vectorised call instead of five passes, one of them erf per element.
// The fused node takes the last node's name, so what reads or fetches it is unchanged. A
// plugin declares a fusion by registering the fused op's kernel; the pass fuses where the
// chain goes to a device whose plugin has it (KernelCoverage), and never takes a device from
// the placer.
#include <cmath>
#include <map>
#include <set>

#include "base/device_name.hpp"
#include "graph/optimize/graph_passes.hpp"
#include "ops/fused_activation.hpp"

namespace hxrt::detail {
namespace {

// Whether a chain fuses, asked of the kernel registry once per chain, T and device type
// asked for. Plugins without devices (a CUDA plugin on a machine without a driver) run nothing,
// and count for nothing.
class KernelCoverage {
 public:
  // `dynamic`: the graph is placed by the dynamic placer, which may choose any device.
  KernelCoverage(const GraphContext& context, bool dynamic)
      : context_(context), dynamic_(dynamic) {}

  // Whether `parts` (the chain's ops, its first node's first) fuse into `fused` at T, for a
  // chain that asks for the device `requested` ("" for none). Among the plugins that could run
  // it, some must have `fused` and each that has every part must: those of the device type it
  // goes to (the type requested, else, under the simple placer, the placer's first type with
  // a kernel for the first part), so that a chain that goes to the CPU fuses there though a
  // GPU without the fused kernel is present; every plugin for a chain that the dynamic placer
  // may put anywhere.
  bool fusable(const std::vector<std::string>& parts, const std::string& fused, DType t,
               const std::string& requested) {
    if (kernels_.empty()) read_kernels();
    const bool anywhere = dynamic_ && requested.empty();
    const std::string type = anywhere ? "" : device_type_of(parts[0], t, requested);
    if (!anywhere && type.empty()) return false;
    std::string key = fused + "/" + dtype_name(t) + "/" + type;
    for (const std::string& part : parts) key += "/" + part;
    auto known = answers_.find(key);
    if (known != answers_.end()) return known->second;
    const std::set<std::string> fusing = plugins_with(fused, t, type);
    std::set<std::string> running = plugins_with(parts[0], t, type);
    for (size_t p = 1; p < parts.size(); ++p) {
      std::set<std::string> also;
      for (const std::string& plugin : plugins_with(parts[p], t, type)) {
        if (running.count(plugin) != 0) also.insert(plugin);
      }
      running = std::move(also);
    }
    bool keeps = !fusing.empty();
    for (const std::string& plugin : running) keeps = keeps && fusing.count(plugin) != 0;
    answers_.emplace(key, keeps);
    return keeps;
  }

 private:
  // The device type a node of `op` at T goes to: the type `requested` names, else the first
  // type in the placer's priority with a kernel for it (the simple placer's); "" when none.
  std::string device_type_of(const std::string& op, DType t, const std::string& requested) {
    if (!requested.empty()) {
      try {
        const std::string type = parse_device_name(requested).type;
        if (!type.empty()) return type;
      } catch (const Error&) {
        return "";  // the builder refuses malformed names; the placer would, in any case
      }
    }
    for (const std::string& type : context_.placer->type_priority()) {
      if (!plugins_with(op, t, type).empty()) return type;
    }
    return "";
  }

  // The plugins with a kernel for `op` at type T and output dtype T, of device type `type`
  // ("" : any).
  std::set<std::string> plugins_with(const std::string& op, DType t,
                                     const std::string& type) const {
    std::set<std::string> plugins;
    for (const KernelEntry* kernel : kernels_) {
      if (kernel->op == op && kernel->accepts(t, t) &&
          (type.empty() || kernel->device_type == type)) {
        plugins.insert(kernel->plugin);
      }
    }
    return plugins;
  }

  void read_kernels() {
    std::set<std::string> with_devices;
    for (const auto& device : context_.devices.all()) with_devices.insert(device->plugin().name());
    for (const KernelEntry* kernel : context_.kernels.all()) {
      if (with_devices.count(kernel->plugin) != 0) kernels_.push_back(kernel);
    }
  }

  const GraphContext& context_;
  const bool dynamic_;
  std::vector<const KernelEntry*> kernels_;  // read when a chain is first met
  std::map<std::string, bool> answers_;
};

// Node `inner` may vanish into a fusion whose last node is `outer`: nothing else reads it,
// nothing names it, and it asks for the device `outer` asks for.
bool absorbable(const GraphRewrite& graph, size_t inner, size_t outer) {
  const GraphNode& node = graph.node(inner);
  return node.kind == GraphNode::Kind::kOp && !graph.kept(inner) && !node.shapes_at_run &&
         graph.sole_reader(inner) == outer &&
         node.requested_device == graph.node(outer).requested_device;
}

// The fused op of an op that an activation may follow: FusedGemm, FusedConv; "" for others.
std::string fused_with_activation(const std::string& op) {
  if (op == "Gemm") return "FusedGemm";
  if (op == "Conv") return "FusedConv";
  return "";
}

// Gemm or Conv -> activation: node `i` is the activation.
bool fuse_activation(GraphRewrite& graph, KernelCoverage& coverage, size_t i,
                     std::vector<std::string>& fused) {
  const GraphNode& activation = graph.node(i);
  if (!is_fused_activation(activation.op) || activation.inputs[0].index != 0) return false;
  const size_t g = graph.producer(activation.inputs[0]);
  const GraphNode& gemm = graph.node(g);
  const std::string fused_op = fused_with_activation(gemm.op);
  if (fused_op.empty() || !absorbable(graph, g, i) ||
      !coverage.fusable({gemm.op, activation.op}, fused_op, gemm.output_dtypes[0],
                        gemm.requested_device)) {
    return false;
  }
  Attrs attrs = gemm.attrs;
  attrs.set("activation", activation.op);
  if (activation.op == "LeakyRelu") {
    const AttrValue* alpha = activation.attrs.find("alpha");
    attrs.set("activation_alpha", alpha ? *alpha : AttrValue(kLeakyReluDefaultAlpha));
  }
  fused.push_back(gemm.name + " + " + activation.name);
  std::vector<NodeOutput> inputs = gemm.inputs;
  graph.make_op(i, fused_op, std::move(inputs), std::move(attrs));
  graph.erase(g);
  return true;
}

// Whether `output` is a constant of one f32 element within 1e-6 of `value`.
bool is_scalar(const GraphRewrite& graph, const NodeOutput& output, double value) {
  const GraphNode& constant = graph.node(graph.producer(output));
  return constant.kind == GraphNode::Kind::kConstant && constant.value.dtype() == DType::kF32 &&
         constant.value.num_elements() == 1 &&
         std::fabs(constant.value.to_vector<float>()[0] - value) <= 1e-6;
}

// Of binary node `index`, the input other than a scalar constant `value`; nullptr when
// neither input is that constant.
const NodeOutput* other_than_scalar(const GraphRewrite& graph, size_t index, double value) {
  const GraphNode& node = graph.node(index);
  if (node.inputs.size() != 2) return nullptr;
  for (int side = 0; side < 2; ++side) {
    if (is_scalar(graph, node.inputs[side], value)) return &node.inputs[1 - side];
  }
  return nullptr;
}

bool is_op(const GraphRewrite& graph, size_t index, const char* op) {
  return index != GraphRewrite::kNone && graph.node(index).kind == GraphNode::Kind::kOp &&
         graph.node(index).op == op;
}

// Div(x, sqrt 2) -> Erf -> Add(., 1) -> Mul(x, .) -> Mul(., 0.5): node `e` is the Erf.
bool fuse_gelu(GraphRewrite& graph, KernelCoverage& coverage, size_t e,
               std::vector<std::string>& fused) {
  if (!is_op(graph, e, "Erf")) return false;
  const size_t d = graph.producer(graph.node(e).inputs[0]);
  const size_t a = graph.sole_reader(e);
  const size_t m = is_op(graph, a, "Add") ? graph.sole_reader(a) : GraphRewrite::kNone;
  const size_t y = is_op(graph, m, "Mul") ? graph.sole_reader(m) : GraphRewrite::kNone;
  if (!is_op(graph, d, "Div") || !is_op(graph, y, "Mul")) return false;
  const NodeOutput* x = &graph.node(d).inputs[0];
  if (!is_scalar(graph, graph.node(d).inputs[1], std::sqrt(2.0)) ||
      other_than_scalar(graph, a, 1.0) == nullptr ||
      other_than_scalar(graph, y, 0.5) == nullptr) {
    return false;
  }
  // Mul(x, Add): its other input is the Div's x.
  const GraphNode& product = graph.node(m);
  const int add_side = graph.producer(product.inputs[0]) == a ? 0 : 1;
  const NodeOutput& also_x = product.inputs[1 - add_side];
  if (also_x.node != x->node || also_x.index != x->index) return false;
  const DType t = graph.node(y).output_dtypes[0];
  if (!absorbable(graph, d, e) || !absorbable(graph, e, a) || !absorbable(graph, a, m) ||
      !absorbable(graph, m, y) || graph.node(y).shapes_at_run ||
      !coverage.fusable({"Div", "Erf", "Add", "Mul"}, "Gelu", t,
                        graph.node(d).requested_device)) {
    return false;
  }
  const NodeOutput input = *x;
  fused.push_back(graph.node(d).name + " ... " + graph.node(y).name + " (Gelu)");
  graph.make_op(y, "Gelu", {input}, Attrs());
  for (size_t gone : {m, a, e, d}) graph.erase(gone);
  return true;
}

}  // namespace

std::vector<std::string> fuse_kernels(GraphContext& context, GraphRewrite& graph,
                                      bool dynamic) {
  std::vector<std::string> fused;
  KernelCoverage coverage(context, dynamic);
  for (size_t i = 0; i < graph.size(); ++i) {
    const GraphNode& node = graph.node(i);
    if (graph.erased(i) || node.kind != GraphNode::Kind::kOp || node.shapes_at_run) continue;
    if (!fuse_activation(graph, coverage, i, fused)) fuse_gelu(graph, coverage, i, fused);
  }
  return fused;
}

}  // namespace hxrt::detail
