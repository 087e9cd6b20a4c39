#include "plugin_test_support.hpp"

#include <dlfcn.h>

#include <algorithm>

namespace cuda_plugin_test {
namespace {

bool loaded(const hxrt::Runtime& runtime, const std::string& name) {
  const auto& report = runtime.load_report();
  return std::any_of(report.begin(), report.end(), [&](const hxrt::PluginReport& entry) {
    return entry.loaded && entry.name == name;
  });
}

std::string describe_report(const hxrt::Runtime& runtime) {
  std::string text;
  for (const hxrt::PluginReport& entry : runtime.load_report()) {
    text += entry.path + ": " + (entry.loaded ? "loaded" : entry.reason) + "\n";
  }
  return text;
}

}  // namespace

std::string cpu_plugin_path() { return std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_cpu.so"; }
std::string cuda_plugin_path() { return std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_cuda.so"; }
std::string sim_plugin_path() { return std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_sim.so"; }

hxrt::Runtime make_runtime(const std::string& sim_options) {
  hxrt::RuntimeOptions options;
  options.use_installed_plugins = false;
  options.plugin_paths = {cpu_plugin_path(), cuda_plugin_path()};
  if (!sim_options.empty()) {
    options.plugin_paths.push_back(sim_plugin_path());
    options.plugin_options = {{"sim", sim_options}};
  }
  hxrt::Runtime runtime = hxrt::Runtime::create(options);
  if (!loaded(runtime, "cpu") || !loaded(runtime, "cuda")) {
    FAIL("the CPU and CUDA plugins did not both load:\n" << describe_report(runtime));
  }
  return runtime;
}

const hxrt::PluginReport& cuda_report(const hxrt::Runtime& runtime) {
  const auto& report = runtime.load_report();
  const auto cuda = std::find_if(report.begin(), report.end(), [](const hxrt::PluginReport& r) {
    return r.path == cuda_plugin_path();
  });
  if (cuda == report.end()) FAIL("no load report for " << cuda_plugin_path());
  return *cuda;
}

bool has_gpu(const hxrt::Runtime& runtime, std::string* why) {
  const hxrt::PluginReport& cuda = cuda_report(runtime);
  if (cuda.loaded && cuda.device_count > 0) return true;
  *why = cuda.loaded ? cuda.note : "the CUDA plugin was skipped: " + cuda.reason;
  return false;
}

bool driver_installed() {
  void* driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (driver == nullptr) return false;
  dlclose(driver);
  return true;
}

}  // namespace cuda_plugin_test
