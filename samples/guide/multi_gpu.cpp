// The guide's "Using multiple GPUs" by hand: the same MatMul replicated on every GPU, the
// products summed with AddN on the CPU. Four GPUs give 4 x [[22, 28], [49, 64]].
//
//   Executing op MatMul in device /job:localhost/replica:0/task:0/device:GPU:0
//   ... GPU:1, GPU:2, GPU:3
//   Copying input 0 of AddN from /job:...GPU:0 to /job:...CPU:0   (and inputs 1 to 3)
//   Executing op AddN in device /job:localhost/replica:0/task:0/device:CPU:0
//   [[88, 112], [196, 256]]
#include <iostream>
#include <vector>

#include "guide_options.hpp"
#include "hxrt/hxrt.hpp"

int main(int argc, char** argv) {
  const std::optional<hxrt::RuntimeOptions> options = guide::options_from_command_line(argc, argv);
  if (!options) return guide::kUsageError;
  try {
    hxrt::Runtime rt = hxrt::Runtime::create(*options);

    std::vector<hxrt::Tensor> products;
    for (const hxrt::DeviceInfo& gpu : rt.devices()) {
      if (gpu.type != "GPU") continue;
      auto scope = rt.device(gpu.name);
      hxrt::Tensor a = rt.tensor<float>({2, 3}, {1, 2, 3, 4, 5, 6});
      hxrt::Tensor b = rt.tensor<float>({3, 2}, {1, 2, 3, 4, 5, 6});
      products.push_back(rt.execute("MatMul", {a, b}));
    }
    if (products.empty()) {
      std::cerr << "guide_multi_gpu: no GPU devices; config/examples/sim_4_gpus.json has four\n";
      return 1;
    }

    auto cpu = rt.device("/CPU:0");
    hxrt::Tensor sum = rt.execute("AddN", products);
    std::cout << sum.to_string() << '\n';
  } catch (const hxrt::Error& error) {
    std::cerr << "guide_multi_gpu: " << error.what() << '\n';
    return 1;
  }
  return 0;
}
