// Accelerators whose copies to and from the host are slow: the simple placer sends a small
// two-layer model fed from the CPU to GPU:0, the first by priority, and pays a copy in for
// each input; the dynamic placer keeps every node on the CPU and says why. The config
// (config/examples/sim_slow_copies.json) gives the sim plugin two GPUs whose kernels are fast
// by their model but whose copies to or from the host take 2 ms and more. (The sim's kernels
// compute on the host, so the CPU runs them faster too, by a fraction of a millisecond; the
// copies are what cost the GPUs milliseconds.)
//
//   build/bin/dynamic_slow_copies config/examples/sim_slow_copies.json
//
//   simple placer:
//     x (Placeholder): GPU:0
//     ...
//     layer2/Relu (Relu): GPU:0
//     run: 6.920 ms (median of 5 runs)
//   dynamic placer:
//     x (Placeholder): CPU:0
//       CPU:0: Placeholder 0.00 ms there vs 2.19 ms on GPU:1; finishes at 0.00 ms vs 2.19 ms
//     ...
//     layer1/MatMul (MatMul): CPU:0
//       CPU:0: MatMul 0.00 ms there vs 0.14 ms on GPU:1; inputs already there; finishes at ...
//     ...
//     run: 0.003 ms (median of 5 runs)
//   dynamic / simple run time: 0.000464x
//   both placers give the same results
#include <iostream>
#include <string>
#include <vector>

#include "compare_placers.hpp"

namespace {

constexpr int64_t kBatch = 32;
constexpr int64_t kWidth = 32;

// relu(relu(x . w1) . w2). With w1 = w2 = 1/32 everywhere and x's rows constant and positive,
// every layer gives x back, exactly, whatever order a device sums in.
dynamic_sample::SampleGraph two_layers(hxrt::Runtime& rt) {
  hxrt::GraphBuilder builder(rt);
  const hxrt::NodeOutput x = builder.input("x", hxrt::DType::kF32, {kBatch, kWidth});
  hxrt::NodeOutput last = x;
  for (const char* layer : {"layer1", "layer2"}) {
    const std::string name = layer;
    const hxrt::NodeOutput w = builder.input(name + "/w", hxrt::DType::kF32, {kWidth, kWidth});
    const hxrt::NodeOutput product = builder.add(name + "/MatMul", "MatMul", {last, w});
    last = builder.add(name + "/Relu", "Relu", {product});
  }
  std::vector<float> x_values;
  for (int64_t row = 0; row < kBatch; ++row) {
    x_values.insert(x_values.end(), kWidth, static_cast<float>(row % 4 + 1));
  }
  const std::vector<float> w_values(kWidth * kWidth, 1.0f / kWidth);
  // Fed on the CPU, where the data of a program usually starts.
  std::map<std::string, hxrt::Tensor> feeds = {
      {"x", rt.tensor<float>({kBatch, kWidth}, x_values, "/CPU:0")},
      {"layer1/w", rt.tensor<float>({kWidth, kWidth}, w_values, "/CPU:0")},
      {"layer2/w", rt.tensor<float>({kWidth, kWidth}, w_values, "/CPU:0")}};
  return {builder.build(), {last}, feeds};
}

}  // namespace

int main(int argc, char** argv) {
  const std::optional<hxrt::RuntimeOptions> options = dynamic_sample::options_from_command_line(
      argc, argv, "config/examples/sim_slow_copies.json");
  if (!options) return dynamic_sample::kUsageError;
  try {
    hxrt::Runtime rt = hxrt::Runtime::create(*options);
    return dynamic_sample::compare_placers(rt, two_layers(rt));
  } catch (const hxrt::Error& error) {
    std::cerr << "dynamic_slow_copies: " << error.what() << '\n';
    return 1;
  }
}
