#include "execution_rig.hpp"

#include <dlfcn.h>

#include <catch2/catch.hpp>

namespace execution_test {

double gflops_for(int64_t n, double seconds) {
  return 2.0 * static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(n) /
         seconds / 1e9;
}

hxrt::Runtime runtime_with_gpus(int count, const std::string& sim_options) {
  hxrt::RuntimeOptions options;
  options.use_installed_plugins = false;
  const std::string dir = HXRT_TEST_PLUGIN_DIR;
  options.plugin_paths = {dir + "/libhx_cpu.so", dir + "/libhx_sim.so"};
  options.plugin_options = {{"sim", "{\"device_type\":\"GPU\",\"device_count\":" +
                                        std::to_string(count) +
                                        (sim_options.empty() ? "" : "," + sim_options) + "}"}};
  hxrt::Runtime rt = hxrt::Runtime::create(options);
  REQUIRE(rt.devices().size() == static_cast<size_t>(count) + 1);
  return rt;
}

std::vector<float> iota(int64_t n, float offset) {
  std::vector<float> values(static_cast<size_t>(n * n));
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i) + offset;
  return values;
}

std::vector<float> identity(int64_t n) {
  std::vector<float> values(static_cast<size_t>(n * n), 0.0f);
  for (int64_t i = 0; i < n; ++i) values[static_cast<size_t>(i * n + i)] = 1.0f;
  return values;
}

hx_sim_transfer_counts_t sim_counts(int32_t ordinal) {
  const std::string path = std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_sim.so";
  void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD);
  REQUIRE(library != nullptr);
  auto counts = reinterpret_cast<hx_sim_transfer_counts_fn>(
      dlsym(library, HX_SIM_TRANSFER_COUNTS_SYMBOL));
  REQUIRE(counts != nullptr);
  hx_sim_transfer_counts_t out{};
  out.struct_size = HX_SIM_TRANSFER_COUNTS_STRUCT_SIZE;
  const int result = counts(ordinal, &out);
  dlclose(library);
  REQUIRE(result == 0);
  return out;
}

}  // namespace execution_test
