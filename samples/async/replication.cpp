// The guide's "Using multiple GPUs" replication, timed: the same MatMul replicated four times,
// the products summed with AddN on the CPU. The work runs once with every replica on GPU:0 and
// once with one replica per GPU, and the sample prints both wall times and their ratio.
// sim_4_timed_gpus.json gives the sim plugin a performance model under which each 64x64
// MatMul takes 20 ms (2 * 64^3 flops at 0.0262144 GFLOP/s), so one GPU needs about 80 ms for
// the four and four GPUs, running at once, about 20 ms. Both runs are recorded as a timeline
// trace (open it in Perfetto: the MatMuls one after another on GPU:0, then side by side).
//
//   build/bin/async_replication samples/async/sim_4_timed_gpus.json [TRACE_FILE]
//
//   1 GPU: 81.2 ms
//   4 GPUs: 20.9 ms
//   4 GPUs / 1 GPU: 0.257x
//   sum[0:2, 0:3] = [[256, 512, 768], [512, 1024, 1536]]
//   every element of the sum is 4 x the single product
//   trace: replication_trace.json
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "hxrt/hxrt.hpp"

namespace {

constexpr int kUsageError = 2;
constexpr int64_t kSize = 64;  // each replica multiplies kSize x kSize by kSize x kSize
constexpr int kReplicas = 4;
constexpr char kDefaultTrace[] = "replication_trace.json";

// Small integers, so that every sum is exact in f32 and a wrong element shows. The product's
// element (i, j) is kSize * a_value(i) * b_value(j).
float a_value(int64_t row) { return static_cast<float>(row % 4 + 1); }
float b_value(int64_t column) { return static_cast<float>(column % 3 + 1); }

float expected_sum(int64_t row, int64_t column) {
  return static_cast<float>(kReplicas * kSize) * a_value(row) * b_value(column);
}

struct Inputs {
  std::vector<float> a;  // row-major, a[i][k] = a_value(i)
  std::vector<float> b;  // row-major, b[k][j] = b_value(j)
};

Inputs make_inputs() {
  Inputs inputs;
  for (int64_t i = 0; i < kSize; ++i) {
    for (int64_t j = 0; j < kSize; ++j) {
      inputs.a.push_back(a_value(i));
      inputs.b.push_back(b_value(j));
    }
  }
  return inputs;
}

// The guide's loop: replica r made and multiplied on gpus[r % gpus.size()], the products summed
// on CPU:0. Returns once the sum has been computed, so that the caller times all of it.
hxrt::Tensor replicate(hxrt::Runtime& rt, const std::vector<std::string>& gpus,
                       const Inputs& inputs) {
  std::vector<hxrt::Tensor> products;
  for (int r = 0; r < kReplicas; ++r) {
    auto scope = rt.device(gpus[static_cast<size_t>(r) % gpus.size()]);
    const hxrt::Tensor a = rt.tensor<float>({kSize, kSize}, inputs.a);
    const hxrt::Tensor b = rt.tensor<float>({kSize, kSize}, inputs.b);
    products.push_back(rt.execute("MatMul", {a, b}));
  }
  auto cpu = rt.device("/CPU:0");
  hxrt::Tensor sum = rt.execute("AddN", products);
  sum.wait();
  return sum;
}

double milliseconds_of(const std::chrono::steady_clock::duration& duration) {
  return std::chrono::duration<double, std::milli>(duration).count();
}

// Runs the replication on `gpus`, prints its wall time under `label` and returns the time
// and the sum.
std::pair<double, hxrt::Tensor> timed_run(hxrt::Runtime& rt, const std::vector<std::string>& gpus,
                                          const Inputs& inputs, const std::string& label) {
  const auto start = std::chrono::steady_clock::now();
  hxrt::Tensor sum = replicate(rt, gpus, inputs);
  const double ms = milliseconds_of(std::chrono::steady_clock::now() - start);
  std::cout << label << ": " << std::fixed << std::setprecision(1) << ms << " ms\n";
  return {ms, sum};
}

// Prints the top-left 2x3 block of the sum and whether every element is as expected.
bool check_sum(const hxrt::Tensor& sum) {
  const std::vector<float> values = sum.to_vector<float>();
  std::cout << std::fixed << std::setprecision(0) << "sum[0:2, 0:3] = [[" << values[0] << ", "
            << values[1] << ", " << values[2] << "], [" << values[kSize] << ", "
            << values[kSize + 1] << ", " << values[kSize + 2] << "]]\n";
  for (int64_t i = 0; i < kSize; ++i) {
    for (int64_t j = 0; j < kSize; ++j) {
      const float value = values[static_cast<size_t>(i * kSize + j)];
      if (value != expected_sum(i, j)) {
        std::cout << "sum[" << i << ", " << j << "] is " << value << ", expected "
                  << expected_sum(i, j) << '\n';
        return false;
      }
    }
  }
  std::cout << "every element of the sum is " << kReplicas << " x the single product\n";
  return true;
}

std::vector<std::string> gpu_names(const hxrt::Runtime& rt) {
  std::vector<std::string> gpus;
  for (const hxrt::DeviceInfo& device : rt.devices()) {
    if (device.type == "GPU") gpus.push_back(device.name);
  }
  return gpus;
}

}  // namespace

int main(int argc, char** argv) {
  const char* config_from_environment = std::getenv("HXRT_CONFIG");
  const bool has_config_from_environment =
      config_from_environment != nullptr && *config_from_environment != '\0';
  if (argc > 3 || (argc < 2 && !has_config_from_environment)) {
    std::cerr << "usage: async_replication CONFIG_FILE [TRACE_FILE] (or set HXRT_CONFIG)\n"
              << "  samples/async/sim_4_timed_gpus.json makes the sim plugin four GPUs whose\n"
              << "  64x64 MatMul takes 20 ms; the trace goes to " << kDefaultTrace
              << " by default\n";
    return kUsageError;
  }
  hxrt::RuntimeOptions options;
  // Without an argument the runtime reads $HXRT_CONFIG itself.
  if (argc >= 2) options.config_path = argv[1];
  const std::string trace_path = argc == 3 ? argv[2] : kDefaultTrace;
  try {
    hxrt::Runtime rt = hxrt::Runtime::create(options);
    const std::vector<std::string> gpus = gpu_names(rt);
    if (gpus.empty()) {
      std::cerr << "async_replication: no GPU devices; samples/async/sim_4_timed_gpus.json has "
                   "four\n";
      return 1;
    }
    const Inputs inputs = make_inputs();
    // Untimed: the first run sets the devices up and fills the allocators' caches.
    replicate(rt, gpus, inputs);

    rt.start_trace(trace_path);
    const double one = timed_run(rt, {gpus.front()}, inputs, "1 GPU").first;
    const auto [many, sum] = timed_run(rt, gpus, inputs, std::to_string(gpus.size()) + " GPUs");
    const std::string written = rt.stop_trace();

    std::cout << gpus.size() << " GPUs / 1 GPU: " << std::fixed << std::setprecision(3)
              << many / one << "x\n";
    const bool correct = check_sum(sum);
    std::cout << "trace: " << written << '\n';
    return correct ? 0 : 1;
  } catch (const hxrt::Error& error) {
    std::cerr << "async_replication: " << error.what() << '\n';
    return 1;
  }
}
