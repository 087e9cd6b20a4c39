// The plugin table as the loader reads it: each input is handed to the fuzzed plugin
// (plugin_table/fuzzed_plugin.c), whose init builds its table, devices and registrations from
// it; a runtime then loads that plugin alone and reports on it.
//
// Oracle: Runtime::create, load_report, physical_devices, devices (which initialises) and
// kernels either succeed or throw hxrt::Error, and what they report is sane: a loaded plugin
// has a name, no reason and a device count >= 0; a skipped one has a reason and leaves no
// kernel and no device behind; every kernel has an op, valid dtypes and a loaded plugin.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>

#include "fuzzed_plugin_bytes.h"
#include "hxrt/runtime.hpp"

namespace {

const uint8_t* current_input;
size_t current_size;

[[noreturn]] void finding(const std::string& what) {
  std::fprintf(stderr, "plugin_table_fuzz: %s\n", what.c_str());
  std::abort();
}

bool known_dtype(hxrt::DType dtype) {
  for (hxrt::DType known : hxrt::kAllDTypes) {
    if (dtype == known) return true;
  }
  return false;
}

void check_report(const hxrt::Runtime& runtime) {
  std::set<std::string> loaded;
  for (const hxrt::PluginReport& report : runtime.load_report()) {
    if (report.loaded) {
      if (report.name.empty() || !report.reason.empty() || report.device_count < 0) {
        finding("a loaded plugin reported without a name, with a reason or with " +
                std::to_string(report.device_count) + " devices: '" + report.name + "', '" +
                report.reason + "'");
      }
      loaded.insert(report.name);
    } else if (report.reason.empty()) {
      finding("a skipped plugin without a reason: " + report.path);
    }
  }
  for (const hxrt::KernelInfo& kernel : runtime.kernels()) {
    if (kernel.op.empty() || kernel.dtypes.empty() || loaded.count(kernel.plugin) == 0) {
      finding("kernel for op '" + kernel.op + "' of plugin '" + kernel.plugin +
              "': no op, no dtypes, or a plugin that is not loaded");
    }
    for (hxrt::DType dtype : kernel.dtypes) {
      if (!known_dtype(dtype)) {
        finding("kernel for op '" + kernel.op + "' with dtype value " +
                std::to_string(static_cast<int>(dtype)));
      }
    }
  }
  for (const hxrt::PhysicalDeviceInfo& device : runtime.physical_devices()) {
    if (loaded.count(device.plugin) == 0 || device.type.empty()) {
      finding("physical device '" + device.short_name + "' of plugin '" + device.plugin +
              "': no type, or a plugin that is not loaded");
    }
  }
  try {
    for (const hxrt::DeviceInfo& device : runtime.devices()) {
      if (loaded.count(device.plugin) == 0) {
        finding("device '" + device.name + "' of plugin '" + device.plugin +
                "', which is not loaded");
      }
    }
  } catch (const hxrt::Error&) {
    // Initialisation may refuse a plugin's devices; the report above must still hold.
  }
}

}  // namespace

extern "C" __attribute__((visibility("default"))) const uint8_t* hxrt_fuzz_plugin_bytes(
    size_t* size) {
  *size = current_size;
  return current_input;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  current_input = data;
  current_size = size;
  hxrt::RuntimeOptions options;
  options.plugin_paths = {HXRT_FUZZED_PLUGIN};
  options.use_installed_plugins = false;
  options.probe_plugins = false;
  options.log_sink = [](hxrt::LogLevel, std::string_view) {};
  try {
    const hxrt::Runtime runtime = hxrt::Runtime::create(options);
    check_report(runtime);
  } catch (const hxrt::Error&) {
    // Refused: the oracle only asks that refusals are hxrt::Error.
  }
  return 0;
}
