#include "graph_workloads.hpp"

#include <string>

namespace hxrt_bench {

hxrt::Tensor relu_input(hxrt::Runtime& runtime) {
  return runtime.tensor<float>({1}, {1.0f}, kCpu);
}

std::vector<hxrt::Tensor> matmul_2x2_inputs(hxrt::Runtime& runtime) {
  return {runtime.tensor<float>({2, 2}, {1, 2, 3, 4}, kCpu),
          runtime.tensor<float>({2, 2}, {1, 0, 0, 1}, kCpu)};
}

Workload relu_chain(hxrt::Runtime& runtime, int nodes) {
  hxrt::GraphBuilder builder(runtime);
  hxrt::NodeOutput last = builder.input("x", hxrt::DType::kF32, {1}, kCpu);
  for (int i = 0; i < nodes; ++i) {
    last = builder.add("relu" + std::to_string(i), "Relu", {last}, {}, kCpu);
  }
  return {builder.build(), last, {relu_input(runtime)}, nodes};
}

Workload relu_wide(hxrt::Runtime& runtime, int nodes) {
  hxrt::GraphBuilder builder(runtime);
  const hxrt::NodeOutput x = builder.input("x", hxrt::DType::kF32, {1}, kCpu);
  std::vector<hxrt::NodeOutput> relus;
  relus.reserve(static_cast<size_t>(nodes));
  for (int i = 0; i < nodes; ++i) {
    relus.push_back(builder.add("relu" + std::to_string(i), "Relu", {x}, {}, kCpu));
  }
  const hxrt::NodeOutput sum = builder.add("sum", "AddN", relus, {}, kCpu);
  return {builder.build(), sum, {relu_input(runtime)}, nodes + 1};
}

Workload matmul_2x2_chain(hxrt::Runtime& runtime, int nodes) {
  hxrt::GraphBuilder builder(runtime);
  hxrt::NodeOutput last = builder.input("x", hxrt::DType::kF32, {2, 2}, kCpu);
  const hxrt::NodeOutput w = builder.input("w", hxrt::DType::kF32, {2, 2}, kCpu);
  for (int i = 0; i < nodes; ++i) {
    last = builder.add("matmul" + std::to_string(i), "MatMul", {last, w}, {}, kCpu);
  }
  return {builder.build(), last, matmul_2x2_inputs(runtime), nodes};
}

}  // namespace hxrt_bench
