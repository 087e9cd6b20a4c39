// The guide's replication ("Using multiple GPUs") with a MirroredStrategy: the MatMul of the
// guide's a and b built once per GPU, and the products' sum reduced over the replicas with
// AllReduce. Every replica then reads the same sum; task 0 prints it.
//
// In one process, on four sim GPUs:
//   build/bin/cluster_mirrored config/examples/sim_4_gpus.json
// On two tasks of two sim GPUs each (every task runs the program; task 0 builds and runs the
// graph, the other serves its part until task 0 is done):
//   mpirun -np 2 build/bin/cluster_mirrored config/examples/sim_2_gpus.json
//
//   4 replicas: /job:localhost/replica:0/task:0/device:GPU:0, ... GPU:3
//   [[88, 112], [196, 256]]
#include <iostream>
#include <string>
#include <vector>

#include "guide_options.hpp"
#include "hxrt/hxrt.hpp"

int main(int argc, char** argv) {
  const std::optional<hxrt::RuntimeOptions> options = guide::options_from_command_line(argc, argv);
  if (!options) return guide::kUsageError;
  try {
    hxrt::Runtime rt = hxrt::Runtime::create(*options);
    if (rt.cluster().rank != 0) return 0;  // its runtime serves task 0's graph as it goes

    const hxrt::MirroredStrategy strategy(rt);  // every GPU of every task
    std::cout << strategy.num_replicas_in_sync() << " replicas:";
    for (const std::string& device : strategy.devices()) std::cout << ' ' << device;
    std::cout << '\n';

    hxrt::GraphBuilder builder(rt);
    const hxrt::NodeOutput a = builder.input("a", hxrt::DType::kF32, {2, 3});
    const hxrt::NodeOutput b = builder.input("b", hxrt::DType::kF32, {3, 2});
    // Each replica's nodes go to its GPU, as `with tf.device(gpu.name)` puts them.
    const std::vector<hxrt::NodeOutput> sum = strategy.reduce(
        builder, [&](hxrt::GraphBuilder& replica_builder,
                     const hxrt::MirroredStrategy::Replica& replica) {
          return std::vector<hxrt::NodeOutput>{
              replica_builder.add(replica.prefix + "MatMul", "MatMul", {a, b})};
        });

    const hxrt::Executable exe = rt.compile(builder.graph(), sum);
    const hxrt::Tensor a_value = rt.tensor<float>({2, 3}, {1, 2, 3, 4, 5, 6}, "/CPU:0");
    const hxrt::Tensor b_value = rt.tensor<float>({3, 2}, {1, 2, 3, 4, 5, 6}, "/CPU:0");
    std::cout << exe.run({{"a", a_value}, {"b", b_value}})[0].to_string() << '\n';
  } catch (const hxrt::Error& error) {
    std::cerr << "cluster_mirrored: " << error.what() << '\n';
    return 1;
  }
  return 0;
}
