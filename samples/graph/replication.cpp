// The guide's "Using multiple GPUs" replication as one graph: a MatMul per GPU, each built in
// that GPU's device scope, and their AddN built in a CPU scope. Compiling it logs the device
// mapping and where each node goes (the guide's `log_device_placement`); running it gives
// 4 x [[22, 28], [49, 64]].
//
//   build/bin/graph_replication config/examples/sim_4_gpus.json
//
//   Device mapping:
//   /job:localhost/replica:0/task:0/device:CPU:0 -> device: 0, name: ..., plugin: cpu
//   ... GPU:0 to GPU:3, plugin: sim
//   a: (Placeholder): /job:localhost/replica:0/task:0/device:GPU:0
//   b: (Placeholder): /job:localhost/replica:0/task:0/device:GPU:0
//   MatMul_0: (MatMul): /job:localhost/replica:0/task:0/device:GPU:0
//   ... MatMul_1 to MatMul_3 on GPU:1 to GPU:3
//   AddN: (AddN): /job:localhost/replica:0/task:0/device:CPU:0
//   [[88, 112], [196, 256]]
#include <iostream>
#include <string>
#include <vector>

#include "guide_options.hpp"
#include "hxrt/hxrt.hpp"

int main(int argc, char** argv) {
  // The config file (four sim GPUs), and placement logging on, to stdout, so that the log
  // reads in order with the result.
  const std::optional<hxrt::RuntimeOptions> options = guide::options_from_command_line(argc, argv);
  if (!options) return guide::kUsageError;
  try {
    hxrt::Runtime rt = hxrt::Runtime::create(*options);

    hxrt::GraphBuilder builder(rt);
    const hxrt::NodeOutput a = builder.input("a", hxrt::DType::kF32, {2, 3});
    const hxrt::NodeOutput b = builder.input("b", hxrt::DType::kF32, {3, 2});
    std::vector<hxrt::NodeOutput> products;
    for (const hxrt::DeviceInfo& gpu : rt.devices()) {
      if (gpu.type != "GPU") continue;
      // As in `with tf.device(...)`: the scope applies to the nodes added while it lives.
      const auto scope = rt.device(gpu.name);
      const std::string name = "MatMul_" + std::to_string(products.size());
      products.push_back(builder.add(name, "MatMul", {a, b}));
    }
    if (products.empty()) {
      std::cerr << "graph_replication: no GPU devices; config/examples/sim_4_gpus.json has four\n";
      return 1;
    }
    hxrt::NodeOutput sum;
    {
      const auto cpu = rt.device("/CPU:0");
      sum = builder.add("AddN", "AddN", products);
    }

    // Placement, transfers from each GPU to the CPU, kernels: once, here. The log is printed now.
    const hxrt::Executable exe = rt.compile(builder.graph(), {sum});

    const hxrt::Tensor a_value = rt.tensor<float>({2, 3}, {1, 2, 3, 4, 5, 6}, "/CPU:0");
    const hxrt::Tensor b_value = rt.tensor<float>({3, 2}, {1, 2, 3, 4, 5, 6}, "/CPU:0");
    const std::vector<hxrt::Tensor> fetched = exe.run({{"a", a_value}, {"b", b_value}});
    std::cout << fetched[0].to_string() << '\n';
  } catch (const hxrt::Error& error) {
    std::cerr << "graph_replication: " << error.what() << '\n';
    return 1;
  }
  return 0;
}
