// The CUDA plugin as the core loads it: on a machine without a GPU it loads with no devices
// and says why, and everything else keeps working; on a GPU it lists the devices and creates
// no CUDA context before work runs.
#include <catch2/catch.hpp>

#include <dlfcn.h>

#include <cuda.h>

#include <regex>
#include <string>
#include <vector>

#include "plugin_test_support.hpp"
#include "run_program.hpp"
#include "abi_text.hpp"

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using cuda_plugin_test::cuda_report;
using cuda_plugin_test::make_runtime;

namespace {

const char* const kCpu0 = "/job:localhost/replica:0/task:0/device:CPU:0";

// Whether device 0's primary CUDA context exists, asked of the driver directly (loaded here
// with dlopen: the tests do not link it, so that they build where there is none).
bool primary_context_active() {
  void* driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  REQUIRE(driver != nullptr);
  const auto init = reinterpret_cast<decltype(&cuInit)>(dlsym(driver, "cuInit"));
  const auto device_get = reinterpret_cast<decltype(&cuDeviceGet)>(dlsym(driver, "cuDeviceGet"));
  const auto get_state = reinterpret_cast<decltype(&cuDevicePrimaryCtxGetState)>(
      dlsym(driver, "cuDevicePrimaryCtxGetState"));
  REQUIRE((init && device_get && get_state));
  CUdevice device = 0;
  unsigned int flags = 0;
  int active = 0;
  REQUIRE(init(0) == CUDA_SUCCESS);
  REQUIRE(device_get(&device, 0) == CUDA_SUCCESS);
  REQUIRE(get_state(device, &flags, &active) == CUDA_SUCCESS);
  dlclose(driver);
  return active != 0;
}

}  // namespace

TEST_CASE(
    "The CUDA plugin loads through Runtime::create, with its devices or the reason it has "
    "none",
    "[cuda][load]") {
  hxrt::Runtime runtime = make_runtime();
  const hxrt::PluginReport& cuda = cuda_report(runtime);
  CHECK(cuda.name == "cuda");
  CHECK(cuda.device_type == "GPU");
  CHECK(cuda.abi_version == abi_text());
  int gpus = 0;
  for (const hxrt::DeviceInfo& device : runtime.devices()) {
    if (device.type != "GPU") continue;
    ++gpus;
    INFO(device.name);
    CHECK(device.plugin == "cuda");
    CHECK(device.vendor == "NVIDIA");
    CHECK(std::regex_match(device.arch, std::regex("sm_[0-9]+")));
    CHECK_FALSE(device.product.empty());
    CHECK(device.compute_units > 0);
    CHECK(device.memory_total > 0);
  }
  CHECK(gpus == cuda.device_count);
  if (cuda.device_count > 0) return;
  CHECK_FALSE(cuda.note.empty());
  if (!cuda_plugin_test::driver_installed()) {
    CHECK_THAT(cuda.note, StartsWith("no CUDA driver: cudaGetDeviceCount: "));
  }
}

TEST_CASE("Without a GPU the CPU runs the ops, and a request for a GPU says there is none",
          "[cuda][load]") {
  hxrt::Runtime runtime = make_runtime();
  if (cuda_report(runtime).device_count > 0) {
    WARN("not applicable: the CUDA plugin has devices here");
    return;
  }
  const hxrt::Tensor a = runtime.tensor<float>({2, 3}, {1, 2, 3, 4, 5, 6});
  const hxrt::Tensor b = runtime.tensor<float>({3, 2}, {1, 2, 3, 4, 5, 6});
  const hxrt::Tensor c = runtime.execute("MatMul", {a, b});
  CHECK(c.device() == kCpu0);
  CHECK(c.to_vector<float>() == std::vector<float>{22, 28, 49, 64});
}

TEST_CASE("The sim plugin provides GPUs beside the CUDA plugin, numbered after its GPUs",
          "[cuda][load]") {
  hxrt::Runtime runtime = make_runtime(R"({"device_type": "GPU", "device_count": 2})");
  const hxrt::PluginReport& cuda = cuda_report(runtime);
  // ABI 2.0: two plugins may provide one device type; their devices are numbered in load
  // order (libhx_cuda.so before libhx_sim.so), and each runs only its own plugin's kernels.
  std::vector<std::string> gpu_plugins;
  for (const hxrt::DeviceInfo& device : runtime.devices()) {
    if (device.type == "GPU") gpu_plugins.push_back(device.plugin);
  }
  std::vector<std::string> expected(static_cast<size_t>(cuda.device_count), "cuda");
  expected.insert(expected.end(), 2, "sim");
  CHECK(gpu_plugins == expected);
  const std::string last_gpu =
      "/job:localhost/replica:0/task:0/device:GPU:" + std::to_string(cuda.device_count + 1);
  const hxrt::Tensor a = runtime.tensor<float>({2, 3}, {1, 2, 3, 4, 5, 6}, last_gpu);
  const hxrt::Tensor b = runtime.tensor<float>({3, 2}, {1, 2, 3, 4, 5, 6}, last_gpu);
  const hxrt::Tensor c = runtime.execute("MatMul", {a, b}, {}, last_gpu);
  CHECK(c.device() == last_gpu);
  CHECK(c.to_vector<float>() == std::vector<float>{22, 28, 49, 64});
}

TEST_CASE("hxrt-info lists the CUDA plugin with its devices or the reason it has none",
          "[cuda][load]") {
  const hxrt_test::ProgramResult result = hxrt_test::run_program(
      std::string(hxrt_test::kCleanEnvironment) + hxrt_test::built_program("hxrt-info") + " 2>&1");
  INFO("output:\n" << result.output);
  CHECK(result.exit_code == 0);
  // The plugin row: STATUS NAME VERSION ABI TYPE DEVICES FILE.
  const std::regex row("\\n *loaded +cuda +\\S+ +2\\.[0-9]+ +GPU +([0-9]+) +\\S*libhx_cuda\\.so\\n");
  std::smatch found;
  REQUIRE(std::regex_search(result.output, found, row));
  if (found[1] != "0") return;
  CHECK_THAT(result.output, Contains("note: no CUDA "));
  if (!cuda_plugin_test::driver_installed()) {
    CHECK_THAT(result.output, Contains("note: no CUDA driver: cudaGetDeviceCount: "));
  }
}

TEST_CASE("The CUDA plugin creates no CUDA context until work runs on the GPU",
          "[cuda][load][gpu]") {
  hxrt::Runtime runtime = make_runtime();
  CUDA_PLUGIN_TEST_REQUIRE_GPU(runtime);
  // Initialising makes every device's allocator and stream; a CPU tensor runs nothing on a GPU.
  // It is named: a tensor with no device goes to GPU:0, as in TensorFlow, and that is work.
  runtime.initialize();
  const hxrt::Tensor on_cpu = runtime.tensor<float>({2}, {1, 2}, "/CPU:0");
  REQUIRE(on_cpu.device() == kCpu0);
  CHECK_FALSE(primary_context_active());
  const hxrt::Tensor on_gpu = runtime.to_device(on_cpu, "/GPU:0");
  CHECK(primary_context_active());
  CHECK(on_gpu.to_vector<float>() == std::vector<float>{1, 2});
}
