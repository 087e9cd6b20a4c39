// One fast accelerator and three slow ones: the simple placer puts every node on GPU:0, the
// first by priority, which is one of the slow ones; the dynamic placer, from the devices'
// calibrated speeds, puts the MatMuls on GPU:3 and says why. The config gives the sim plugin
// four GPUs on which a 32x32 MatMul takes 16 ms (GPU:0 to GPU:2) or 1 ms (GPU:3), and leaves
// the CPU plugin out: the sim's kernels compute on the host, after their modelled time, so
// the host's own CPU would outrun every simulated accelerator and win every node.
//
//   build/bin/dynamic_one_fast_three_slow samples/dynamic/one_fast_three_slow_gpus.json
//
//   simple placer:
//     x (Placeholder): GPU:0
//     w (Placeholder): GPU:0
//     chain0/mm0 (MatMul): GPU:0
//     ...
//     run: 97.330 ms (median of 5 runs)
//   dynamic placer:
//     x (Placeholder): GPU:0
//       GPU:0: Placeholder 0.00 ms there vs 0.08 ms on GPU:1; finishes at 0.00 ms vs 0.08 ms
//     ...
//     chain0/mm0 (MatMul): GPU:3
//       GPU:3: MatMul 1.12 ms there vs 16.15 ms on GPU:0; 0.18 ms of copies in; finishes at ...
//     ...
//     run: 7.015 ms (median of 5 runs)
//   dynamic / simple run time: 0.0721x
//   both placers give the same results
#include <iostream>
#include <string>
#include <vector>

#include "compare_placers.hpp"

namespace {

constexpr int64_t kSize = 32;
constexpr int kChains = 2;
constexpr int kChainLength = 3;

// x . w . w . w, twice: two independent chains of MatMuls, both fetched. With w = 1/32
// everywhere, x . w = x for an x whose rows are constant, so every product is exact.
dynamic_sample::SampleGraph chains(hxrt::Runtime& rt) {
  hxrt::GraphBuilder builder(rt);
  const hxrt::NodeOutput x = builder.input("x", hxrt::DType::kF32, {kSize, kSize});
  const hxrt::NodeOutput w = builder.input("w", hxrt::DType::kF32, {kSize, kSize});
  std::vector<hxrt::NodeOutput> fetches;
  for (int chain = 0; chain < kChains; ++chain) {
    hxrt::NodeOutput last = x;
    for (int i = 0; i < kChainLength; ++i) {
      last = builder.add("chain" + std::to_string(chain) + "/mm" + std::to_string(i), "MatMul",
                         {last, w});
    }
    fetches.push_back(last);
  }
  std::vector<float> x_values;
  for (int64_t row = 0; row < kSize; ++row) {
    x_values.insert(x_values.end(), kSize, static_cast<float>(row % 4 + 1));
  }
  // Fed on GPU:0: with no CPU, the first device is where the dynamic placer takes feeds from.
  std::map<std::string, hxrt::Tensor> feeds = {
      {"x", rt.tensor<float>({kSize, kSize}, x_values, "/GPU:0")},
      {"w", rt.tensor<float>({kSize, kSize}, std::vector<float>(kSize * kSize, 1.0f / kSize),
                             "/GPU:0")}};
  return {builder.build(), fetches, feeds};
}

}  // namespace

int main(int argc, char** argv) {
  const std::optional<hxrt::RuntimeOptions> options = dynamic_sample::options_from_command_line(
      argc, argv, "samples/dynamic/one_fast_three_slow_gpus.json");
  if (!options) return dynamic_sample::kUsageError;
  try {
    hxrt::Runtime rt = hxrt::Runtime::create(*options);
    return dynamic_sample::compare_placers(rt, chains(rt));
  } catch (const hxrt::Error& error) {
    std::cerr << "dynamic_one_fast_three_slow: " << error.what() << '\n';
    return 1;
  }
}
