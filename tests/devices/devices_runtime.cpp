#include "devices_runtime.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <stdexcept>

namespace devices_test {
namespace {

const std::string kSimPath = std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_sim.so";

float counting_value(size_t i, float first) { return first + static_cast<float>(i % 1000); }

}  // namespace

hxrt::RuntimeOptions cpu_and_sim(const std::string& sim_options_json) {
  hxrt::RuntimeOptions options;
  options.use_installed_plugins = false;
  options.plugin_paths = {std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_cpu.so", kSimPath};
  options.plugin_options["sim"] = sim_options_json;
  return options;
}

hxrt::Runtime make_runtime(const std::string& sim_options_json) {
  return hxrt::Runtime::create(cpu_and_sim(sim_options_json));
}

void LogLines::attach(hxrt::RuntimeOptions& options) {
  options.log_level = hxrt::LogLevel::kInfo;
  options.log_sink = [this](hxrt::LogLevel, std::string_view line) { lines.emplace_back(line); };
}

bool LogLines::contains(const std::string& line) const {
  return std::find(lines.begin(), lines.end(), line) != lines.end();
}

hxrt::Tensor counting_tensor(hxrt::Runtime& rt, size_t bytes, float first,
                             const std::string& device) {
  std::vector<float> values(bytes / sizeof(float));
  for (size_t i = 0; i < values.size(); ++i) values[i] = counting_value(i, first);
  return rt.tensor<float>({static_cast<int64_t>(values.size())}, values, device);
}

bool holds_counting(const hxrt::Tensor& tensor, float first) {
  const std::vector<float> values = tensor.to_vector<float>();
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i] != counting_value(i, first)) return false;
  }
  return true;
}

hx_sim_transfer_counts_t sim_counts(int32_t ordinal) {
  void* library = dlopen(kSimPath.c_str(), RTLD_NOW | RTLD_NOLOAD);
  if (library == nullptr) throw std::runtime_error("the sim plugin is not loaded");
  auto counts = reinterpret_cast<hx_sim_transfer_counts_fn>(
      dlsym(library, HX_SIM_TRANSFER_COUNTS_SYMBOL));
  dlclose(library);  // the runtime holds its own reference
  if (counts == nullptr) throw std::runtime_error("the sim plugin exports no transfer counts");
  hx_sim_transfer_counts_t out{};
  out.struct_size = HX_SIM_TRANSFER_COUNTS_STRUCT_SIZE;
  if (counts(ordinal, &out) != 0) throw std::runtime_error("no sim device with that ordinal");
  return out;
}

const hxrt::DeviceInfo& find_device(const std::vector<hxrt::DeviceInfo>& devices,
                                    const std::string& short_name) {
  for (const auto& device : devices) {
    if (device.short_name == short_name) return device;
  }
  throw std::runtime_error("no device " + short_name);
}

const hxrt::PhysicalDeviceInfo& find_physical(const std::vector<hxrt::PhysicalDeviceInfo>& devices,
                                              const std::string& short_name) {
  for (const auto& device : devices) {
    if (device.short_name == short_name) return device;
  }
  throw std::runtime_error("no physical device " + short_name);
}

}  // namespace devices_test
