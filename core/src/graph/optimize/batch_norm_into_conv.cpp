// An inference-mode BatchNormalization after a Conv of constant weights scales each output
// channel and shifts it: the same as the Conv with its weights scaled and its bias shifted,
// computed once here (ONNX Runtime's ConvBNFusion). Exporters write it when a model is saved
// with its training-time layers (torch's training=TrainingMode.PRESERVE).
#include <cmath>
#include <variant>

#include "graph/optimize/graph_passes.hpp"
#include "tensors/transfers.hpp"

namespace hxrt::detail {
namespace {

// The f32 constant output `output` reads, read only by `reader`; nullptr otherwise.
const GraphNode* own_constant(const GraphRewrite& graph, const NodeOutput& output,
                              size_t reader) {
  const size_t index = graph.producer(output);
  const GraphNode& node = graph.node(index);
  if (node.kind != GraphNode::Kind::kConstant || node.value.dtype() != DType::kF32 ||
      graph.sole_reader(index) != reader || graph.kept(index)) {
    return nullptr;
  }
  return &node;
}

// A numeric attribute, int or float; `otherwise` when absent or of another type (inference
// accepted the node, so only an int where a float is meant can differ).
double number_attr(const Attrs& attrs, const char* name, double otherwise) {
  const AttrValue* value = attrs.find(name);
  if (value == nullptr) return otherwise;
  if (const double* number = std::get_if<double>(value)) return *number;
  if (const int64_t* integer = std::get_if<int64_t>(value)) return static_cast<double>(*integer);
  return otherwise;
}

Tensor host_tensor(GraphContext& context, const Shape& shape, const std::vector<float>& values) {
  return tensor_from_host(context.eager.default_tensor_device(), DType::kF32, shape,
                          values.data(), values.size() * sizeof(float));
}

}  // namespace

bool fold_batch_norm_into_conv(GraphContext& context, GraphRewrite& graph, size_t b) {
  const GraphNode& norm = graph.node(b);
  if (norm.op != "BatchNormalization" || graph.kept(b) || graph.reads_of(b, 1) != 0 ||
      graph.reads_of(b, 2) != 0 || norm.inputs[0].index != 0) {
    return false;
  }
  if (number_attr(norm.attrs, "training_mode", 0) != 0) return false;
  const size_t c = graph.producer(norm.inputs[0]);
  const GraphNode& conv = graph.node(c);
  if (conv.kind != GraphNode::Kind::kOp || conv.op != "Conv" || graph.kept(c) ||
      graph.sole_reader(c) != b || conv.requested_device != norm.requested_device) {
    return false;
  }
  const GraphNode* weights = own_constant(graph, conv.inputs[1], c);
  // The new bias goes in the Conv's own, or in BatchNormalization's B, which then moves
  // before the Conv: every node comes after its inputs.
  const bool has_bias = conv.inputs.size() == 3;
  const GraphNode* bias =
      has_bias ? own_constant(graph, conv.inputs[2], c) : own_constant(graph, norm.inputs[2], b);
  if (weights == nullptr || bias == nullptr) return false;
  std::vector<std::vector<float>> statistics;  // scale, B, mean, var
  for (size_t i = 1; i < 5; ++i) {
    const GraphNode& value = graph.node(graph.producer(norm.inputs[i]));
    if (value.kind != GraphNode::Kind::kConstant || value.value.dtype() != DType::kF32) {
      return false;
    }
    statistics.push_back(value.value.to_vector<float>());
  }
  const double epsilon = number_attr(norm.attrs, "epsilon", 1e-5);
  std::vector<float> w = weights->value.to_vector<float>();
  const size_t channels = statistics[0].size();
  for (const std::vector<float>& statistic : statistics) {
    if (statistic.size() != channels) return false;
  }
  if (channels == 0 || w.size() % channels != 0) return false;
  const size_t per_channel = w.size() / channels;
  std::vector<float> shift(channels, 0.0f);
  if (has_bias) shift = bias->value.to_vector<float>();
  for (size_t k = 0; k < channels; ++k) {
    const double factor = statistics[0][k] / std::sqrt(statistics[3][k] + epsilon);
    for (size_t j = 0; j < per_channel; ++j) {
      w[k * per_channel + j] = static_cast<float>(w[k * per_channel + j] * factor);
    }
    shift[k] = static_cast<float>((shift[k] - statistics[2][k]) * factor + statistics[1][k]);
  }
  const size_t w_index = graph.producer(conv.inputs[1]);
  const NodeOutput bias_output = has_bias ? conv.inputs[2] : norm.inputs[2];
  const size_t bias_index = graph.producer(bias_output);
  graph.make_constant(w_index, host_tensor(context, graph.node(w_index).output_shapes[0], w));
  graph.make_constant(bias_index, host_tensor(context, Shape{static_cast<int64_t>(channels)},
                                              shift));
  if (bias_index > c) graph.move_constant_before(bias_index, c);
  std::vector<NodeOutput> inputs = {conv.inputs[0], conv.inputs[1], bias_output};
  Attrs attrs = conv.attrs;
  graph.make_op(c, "Conv", std::move(inputs), std::move(attrs));
  graph.bypass(b, NodeOutput{graph.node(c).name, 0});
  return true;
}

}  // namespace hxrt::detail
