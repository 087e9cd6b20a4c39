#include "sim_runtime.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <stdexcept>

namespace placement_test {
namespace {

const std::string kSimPath = std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_sim.so";

// The sim library the runtime loaded; dlopen with RTLD_NOLOAD never loads a second copy.
void* sim_symbol(const char* name) {
  void* library = dlopen(kSimPath.c_str(), RTLD_NOW | RTLD_NOLOAD);
  if (library == nullptr) throw std::runtime_error("the sim plugin is not loaded");
  void* symbol = dlsym(library, name);
  dlclose(library);  // drops the reference dlopen took; the runtime still holds its own
  if (symbol == nullptr) throw std::runtime_error(std::string("no symbol ") + name);
  return symbol;
}

}  // namespace

hxrt::RuntimeOptions sim_options(const std::string& sim_options_json) {
  hxrt::RuntimeOptions options;
  options.use_installed_plugins = false;
  options.plugin_paths = {std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_cpu.so", kSimPath};
  options.plugin_options["sim"] = sim_options_json;
  return options;
}

hxrt::Runtime four_gpus() {
  return hxrt::Runtime::create(sim_options(R"({"device_type": "GPU", "device_count": 4})"));
}

void LogCapture::attach(hxrt::Runtime& runtime) {
  runtime.set_log_sink(
      [this](hxrt::LogLevel, std::string_view line) { lines.emplace_back(line); });
  runtime.set_log_device_placement(true);
}

bool LogCapture::contains(const std::string& line) const {
  return std::find(lines.begin(), lines.end(), line) != lines.end();
}

size_t LogCapture::count_starting_with(const std::string& prefix) const {
  return static_cast<size_t>(std::count_if(lines.begin(), lines.end(), [&](const std::string& l) {
    return l.rfind(prefix, 0) == 0;
  }));
}

hx_sim_transfer_counts_t sim_counts(int32_t ordinal) {
  auto counts = reinterpret_cast<hx_sim_transfer_counts_fn>(
      sim_symbol(HX_SIM_TRANSFER_COUNTS_SYMBOL));
  hx_sim_transfer_counts_t out{};
  out.struct_size = HX_SIM_TRANSFER_COUNTS_STRUCT_SIZE;
  if (counts(ordinal, &out) != 0) throw std::runtime_error("no sim device with that ordinal");
  return out;
}

void reset_sim_counts() {
  reinterpret_cast<hx_sim_reset_transfer_counts_fn>(
      sim_symbol(HX_SIM_RESET_TRANSFER_COUNTS_SYMBOL))();
}

}  // namespace placement_test
