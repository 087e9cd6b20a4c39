// A two-layer perceptron's forward pass as one graph, each layer relu(x . W + b) with the bias
// broadcast over the batch: the hidden layer built in a CPU scope, the output layer in a GPU
// scope, as Géron splits a network over devices. Compiling logs where each node goes (the
// CPU's layer as the one MatMulBias node the fusion pass makes of it); the run's output is
// then checked against the same ops run eagerly.
//
//   build/bin/graph_perceptron config/examples/sim_4_gpus.json
//
//   Device mapping:
//   ...
//   x: (Placeholder): /job:localhost/replica:0/task:0/device:CPU:0
//   hidden/weights: (Placeholder): /job:localhost/replica:0/task:0/device:CPU:0
//   hidden/bias: (Placeholder): /job:localhost/replica:0/task:0/device:CPU:0
//   hidden/Relu: (MatMulBias): /job:localhost/replica:0/task:0/device:CPU:0
//   output/weights: (Placeholder): /job:localhost/replica:0/task:0/device:GPU:0
//   ...
//   output/Relu: (Relu): /job:localhost/replica:0/task:0/device:GPU:0
//   graph:  [[5, 0], [0, 12]]
//   eager:  [[5, 0], [0, 12]]
//   the graph's output matches eager execution
#include <iostream>
#include <string>
#include <vector>

#include "guide_options.hpp"
#include "hxrt/hxrt.hpp"

namespace {

constexpr int64_t kBatch = 2, kFeatures = 3, kHidden = 4, kOutputs = 2;

// Small fixed values, chosen so that each Relu zeroes some of its inputs and the output is
// exact in f32.
const std::vector<float> kX = {1, -1, 2, 0, 3, -2};
const std::vector<float> kHiddenWeights = {1, 0, -1, 2, 0, 1, 1, -1, 1, -1, 0, 1};
const std::vector<float> kHiddenBias = {1, 1, 1, -1};
const std::vector<float> kOutputWeights = {1, -1, 0.5f, 1, -1, 2, 0.25f, 0};
const std::vector<float> kOutputBias = {0, -2};

struct LayerShape {
  int64_t inputs;
  int64_t units;
};

// relu(x . weights + bias) as graph nodes named "<layer>/...", its weights and bias graph
// inputs, all on the device of the scope in force.
hxrt::NodeOutput dense_layer(hxrt::GraphBuilder& builder, const std::string& layer,
                             const hxrt::NodeOutput& x, LayerShape shape) {
  const hxrt::NodeOutput weights =
      builder.input(layer + "/weights", hxrt::DType::kF32, {shape.inputs, shape.units});
  const hxrt::NodeOutput bias = builder.input(layer + "/bias", hxrt::DType::kF32, {shape.units});
  const hxrt::NodeOutput product = builder.add(layer + "/MatMul", "MatMul", {x, weights});
  const hxrt::NodeOutput biased = builder.add(layer + "/Add", "Add", {product, bias});
  return builder.add(layer + "/Relu", "Relu", {biased});
}

// The same layer run eagerly, on the device of the scope in force.
hxrt::Tensor dense_layer(hxrt::Runtime& rt, const hxrt::Tensor& x, const hxrt::Tensor& weights,
                         const hxrt::Tensor& bias) {
  return rt.execute("Relu", {rt.execute("Add", {rt.execute("MatMul", {x, weights}), bias})});
}

}  // namespace

int main(int argc, char** argv) {
  // The config file (a sim GPU), and placement logging on, to stdout, so that the log reads
  // in order with the results.
  const std::optional<hxrt::RuntimeOptions> options = guide::options_from_command_line(argc, argv);
  if (!options) return guide::kUsageError;
  try {
    hxrt::Runtime rt = hxrt::Runtime::create(*options);

    hxrt::GraphBuilder builder(rt);
    const hxrt::NodeOutput x = builder.input("x", hxrt::DType::kF32, {kBatch, kFeatures});
    hxrt::NodeOutput hidden;
    {
      const auto cpu = rt.device("/CPU:0");
      hidden = dense_layer(builder, "hidden", x, {kFeatures, kHidden});
    }
    hxrt::NodeOutput output;
    {
      const auto gpu = rt.device("/GPU:0");
      output = dense_layer(builder, "output", hidden, {kHidden, kOutputs});
    }
    // Logs the placement; the hidden activations cross from the CPU to the GPU once per run.
    const hxrt::Executable exe = rt.compile(builder.graph(), {output});

    const hxrt::Tensor x_value = rt.tensor<float>({kBatch, kFeatures}, kX, "/CPU:0");
    const hxrt::Tensor hidden_weights =
        rt.tensor<float>({kFeatures, kHidden}, kHiddenWeights, "/CPU:0");
    const hxrt::Tensor hidden_bias = rt.tensor<float>({kHidden}, kHiddenBias, "/CPU:0");
    const hxrt::Tensor output_weights =
        rt.tensor<float>({kHidden, kOutputs}, kOutputWeights, "/CPU:0");
    const hxrt::Tensor output_bias = rt.tensor<float>({kOutputs}, kOutputBias, "/CPU:0");
    const hxrt::Tensor from_graph = exe.run({{"x", x_value},
                                             {"hidden/weights", hidden_weights},
                                             {"hidden/bias", hidden_bias},
                                             {"output/weights", output_weights},
                                             {"output/bias", output_bias}})[0];
    std::cout << "graph:  " << from_graph.to_string() << '\n';

    // The same ops one by one, each layer in the same scope as in the graph; the eager log
    // is left out, the graph's placement said it all.
    rt.set_log_device_placement(false);
    hxrt::Tensor eager_hidden;
    {
      const auto cpu = rt.device("/CPU:0");
      eager_hidden = dense_layer(rt, x_value, hidden_weights, hidden_bias);
    }
    hxrt::Tensor eager;
    {
      const auto gpu = rt.device("/GPU:0");
      eager = dense_layer(rt, eager_hidden, output_weights, output_bias);
    }
    std::cout << "eager:  " << eager.to_string() << '\n';

    const bool match = from_graph.to_vector<float>() == eager.to_vector<float>();
    std::cout << (match ? "the graph's output matches eager execution\n"
                        : "the graph's output differs from eager execution\n");
    return match ? 0 : 1;
  } catch (const hxrt::Error& error) {
    std::cerr << "graph_perceptron: " << error.what() << '\n';
    return 1;
  }
}
