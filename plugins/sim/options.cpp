#include "options.hpp"

#include <hxplugin/options_object.hpp>
#include <hxplugin/status.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <nlohmann/json.hpp>

#include "kernels/kernel_registry.hpp"
#include "op_model_options.hpp"

namespace hxsim {
namespace {

using nlohmann::json;

// The largest budget whose byte count still fits in an int64, which is what memory figures
// are reported in on the core's side.
constexpr uint64_t kMaxMemoryMb = static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) >> 20;
// The most bytes a device figure may hold for the core (hx_device_properties.memory_total).
constexpr uint64_t kMaxBytes = uint64_t{1} << 60;

// The value as JSON text for a message, cut short so that a huge value cannot drown it.
std::string shown(const json& value) {
  std::string text = value.dump();
  if (text.size() > 60) text = text.substr(0, 57) + "...";
  return text;
}

hx_status* bad_value(const hx_core_services& services, const char* option, const char* expected,
                     const json& value) {
  return hxplugin::make_status(services, HX_INVALID_ARGUMENT,
                               "sim plugin option '%s': expected %s, got %s", option, expected,
                               shown(value).c_str());
}

bool is_device_type(const std::string& type) {
  if (type.empty() || type[0] < 'A' || type[0] > 'Z') return false;
  return std::all_of(type.begin(), type.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  });
}

hx_status* read_device_type(const hx_core_services& services, const json& value,
                            SimOptions& options) {
  if (!value.is_string() || !is_device_type(value.get<std::string>())) {
    return bad_value(services, "device_type",
                     "a device type matching [A-Z][A-Z0-9_]* (\"SIM\", \"GPU\")", value);
  }
  options.device_type = value.get<std::string>();
  return nullptr;
}

hx_status* read_device_count(const hx_core_services& services, const json& value,
                             std::optional<int32_t>* out) {
  // JSON text parses non-negative integers as unsigned, negative ones as signed.
  if (!value.is_number_unsigned() ||
      value.get<uint64_t>() > static_cast<uint64_t>(kMaxDeviceCount)) {
    return hxplugin::make_status(
        services, HX_INVALID_ARGUMENT,
        "sim plugin option 'device_count': expected an integer from 0 to %d, got "
        "%s",
        static_cast<int>(kMaxDeviceCount), shown(value).c_str());
  }
  *out = static_cast<int32_t>(value.get<uint64_t>());
  return nullptr;
}

// "memory_mb", or a device's ("devices[1].memory_mb"), named by `option`.
hx_status* read_memory_mb(const hx_core_services& services, const std::string& option,
                          const json& value, uint64_t* out) {
  if (!value.is_number_unsigned() || value.get<uint64_t>() == 0 ||
      value.get<uint64_t>() > kMaxMemoryMb) {
    return hxplugin::make_status(
        services, HX_INVALID_ARGUMENT,
        "sim plugin option '%s': expected an integer from 1 to %llu, got "
        "%s",
        option.c_str(), static_cast<unsigned long long>(kMaxMemoryMb), shown(value).c_str());
  }
  *out = value.get<uint64_t>();
  return nullptr;
}

hx_status* read_placement_class(const hx_core_services& services, const json& value,
                                SimOptions& options) {
  static const struct {
    const char* name;
    int32_t placement_class;
  } kClasses[] = {{"discrete_accelerator", HX_PLACEMENT_DISCRETE_ACCELERATOR},
                  {"host_accelerator", HX_PLACEMENT_HOST_ACCELERATOR},
                  {"cpu", HX_PLACEMENT_CPU}};
  for (const auto& known : kClasses) {
    if (value.is_string() && value.get<std::string>() == known.name) {
      options.placement_class = known.placement_class;
      return nullptr;
    }
  }
  return bad_value(services, "placement_class",
                   "\"discrete_accelerator\", \"host_accelerator\" or \"cpu\"", value);
}

// A count of bytes from 1 to 2^60 (max_allocation, max_binding, min_alignment).
hx_status* read_byte_count(const hx_core_services& services, const char* option,
                           const json& value, uint64_t* out) {
  if (!value.is_number_unsigned() || value.get<uint64_t>() == 0 ||
      value.get<uint64_t>() > kMaxBytes) {
    return bad_value(services, option, "a number of bytes from 1 to 2^60", value);
  }
  *out = value.get<uint64_t>();
  return nullptr;
}

hx_status* read_alignment(const hx_core_services& services, const json& value,
                          SimOptions& options) {
  const bool valid = value.is_number_unsigned() && value.get<uint64_t>() >= 1 &&
                     value.get<uint64_t>() <= 4096 &&
                     (value.get<uint64_t>() & (value.get<uint64_t>() - 1)) == 0;
  if (!valid) return bad_value(services, "alignment", "a power of two from 1 to 4096", value);
  options.alignment = value.get<uint64_t>();
  return nullptr;
}

hx_status* read_flag(const hx_core_services& services, const char* option, const json& value,
                     bool* out) {
  if (!value.is_boolean()) return bad_value(services, option, "true or false", value);
  *out = value.get<bool>();
  return nullptr;
}

// A list of ops the plugin implements, each once ("ops", "fault_ops").
hx_status* read_op_list(const hx_core_services& services, const char* option, const json& value,
                        std::vector<std::string>* out) {
  if (!value.is_array()) return bad_value(services, option, "a list of op names", value);
  std::vector<std::string> ops;
  for (const json& item : value) {
    if (!item.is_string()) return bad_value(services, option, "op names (strings)", item);
    const std::string op = item.get<std::string>();
    if (!implements_op(op)) {
      return hxplugin::make_status(
          services, HX_INVALID_ARGUMENT,
          "sim plugin option '%s': the sim plugin has no kernel for op '%s'; it "
          "implements %s",
          option, op.c_str(), implemented_op_list().c_str());
    }
    if (std::find(ops.begin(), ops.end(), op) != ops.end()) {
      return hxplugin::make_status(services, HX_INVALID_ARGUMENT,
                                   "sim plugin option '%s': op '%s' is listed twice", option,
                                   op.c_str());
    }
    ops.push_back(op);
  }
  *out = std::move(ops);
  return nullptr;
}

struct Figure {
  const char* name;
  double limit;
  double* field;
};

// The model's figures, each an option at the plugin level and a key of a device's entry in
// "devices", with where `perf` keeps it.
std::array<Figure, 12> figures(PerfOptions& perf) {
  return {{
      {"matmul_gflops", kMaxRate, &perf.matmul_gflops},
      {"elementwise_gbps", kMaxRate, &perf.elementwise_gbps},
      {"launch_latency_us", kMaxMicroseconds, &perf.launch_latency_us},
      {"h2d_gbps", kMaxRate, &perf.h2d.gbps},
      {"h2d_latency_us", kMaxMicroseconds, &perf.h2d.latency_us},
      {"d2h_gbps", kMaxRate, &perf.d2h.gbps},
      {"d2h_latency_us", kMaxMicroseconds, &perf.d2h.latency_us},
      {"d2d_gbps", kMaxRate, &perf.d2d.gbps},
      {"d2d_latency_us", kMaxMicroseconds, &perf.d2d.latency_us},
      {"random_delay_us", kMaxMicroseconds, &perf.random_delay_us},
      {"host_launch_us", kMaxMicroseconds, &perf.host_launch_us},
      {"host_replay_us", kMaxMicroseconds, &perf.host_replay_us},
  }};
}

// "matmul_gflops, elementwise_gbps, ..., random_delay_us", for messages.
std::string figure_names() {
  PerfOptions unused;
  std::string names;
  for (const Figure& figure : figures(unused)) {
    if (!names.empty()) names += ", ";
    names += figure.name;
  }
  return names;
}

// The figure `key` into `perf`, named `option` in messages (`key` itself, or a device's
// "devices[1].matmul_gflops"); *known = false when `key` is not a figure.
hx_status* read_figure(const hx_core_services& services, const std::string& option,
                       const std::string& key, const json& value, PerfOptions& perf,
                       bool* known) {
  for (const Figure& figure : figures(perf)) {
    if (key != figure.name) continue;
    *known = true;
    if (!value.is_number() || !(value.get<double>() >= 0) || value.get<double>() > figure.limit) {
      char expected[96];
      std::snprintf(expected, sizeof expected, "a number from 0 (none) to %g", figure.limit);
      return bad_value(services, option.c_str(), expected, value);
    }
    *figure.field = value.get<double>();
    return nullptr;
  }
  *known = false;
  return nullptr;
}

hx_status* read_random_seed(const hx_core_services& services, const json& value,
                            uint64_t* out) {
  if (!value.is_number_unsigned()) {
    return bad_value(services, "random_seed", "an integer from 0 to 2^64-1", value);
  }
  *out = value.get<uint64_t>();
  return nullptr;
}

hx_status* check_device_list(const hx_core_services& services, const json& value) {
  if (!value.is_array() || value.empty() ||
      value.size() > static_cast<size_t>(kMaxDeviceCount)) {
    char expected[96];
    std::snprintf(expected, sizeof expected, "a list of 1 to %d objects, one per device",
                  static_cast<int>(kMaxDeviceCount));
    return bad_value(services, "devices", expected, value);
  }
  return nullptr;
}

// Overrides `device` (the plugin-level figures) with `entry`, the device's entry in "devices"
// at `index`.
hx_status* read_device_entry(const hx_core_services& services, size_t index, const json& entry,
                             DeviceOptions& device) {
  const std::string path = "devices[" + std::to_string(index) + "]";
  if (!entry.is_object()) {
    return bad_value(services, path.c_str(),
                     "an object of the device's own options (memory_mb, the performance "
                     "model's figures)",
                     entry);
  }
  for (const auto& [key, value] : entry.items()) {
    const std::string option = path + "." + key;
    bool figure = false;
    if (hx_status* status = read_figure(services, option, key, value, device.perf, &figure)) {
      return status;
    }
    if (figure) continue;
    if (key == "memory_mb") {
      if (hx_status* status = read_memory_mb(services, option, value, &device.memory_mb)) {
        return status;
      }
    } else if (key == "op_models") {
      if (hx_status* status = read_op_models(services, option, value, device.perf.ops)) {
        return status;
      }
    } else if (key == "random_seed") {
      return hxplugin::make_status(
          services, HX_INVALID_ARGUMENT,
          "sim plugin option '%s': the random seed is plugin-wide: set random_seed beside "
          "\"devices\" (each device draws its delays from a generator of its own, seeded with "
          "random_seed plus its ordinal)",
          option.c_str());
    } else {
      return hxplugin::make_status(
          services, HX_INVALID_ARGUMENT,
          "sim plugin option '%s': unknown key '%s'; a device's keys are memory_mb, "
          "op_models, %s; the other options are plugin-wide",
          path.c_str(), key.c_str(), figure_names().c_str());
    }
  }
  return nullptr;
}

// The devices: `device_count` copies of `every_device` (none when not given), or, with the
// option "devices" (`list`), one per entry, each `every_device` with its entry's overrides.
hx_status* resolve_devices(const hx_core_services& services, const DeviceOptions& every_device,
                           std::optional<int32_t> device_count, const json* list,
                           std::vector<DeviceOptions>* out) {
  if (list == nullptr) {
    out->assign(static_cast<size_t>(device_count.value_or(0)), every_device);
    return nullptr;
  }
  // The list sets the count; a device_count beside it is refused unless it agrees, since a
  // mismatch means one of the two was edited without the other.
  if (device_count.has_value() && static_cast<size_t>(*device_count) != list->size()) {
    return hxplugin::make_status(
        services, HX_INVALID_ARGUMENT,
        "sim plugin options 'device_count' and 'devices' disagree: device_count is %d but "
        "devices lists %zu devices; the list sets the device count, so leave device_count "
        "out or make it match",
        static_cast<int>(*device_count), list->size());
  }
  std::vector<DeviceOptions> devices;
  for (size_t index = 0; index < list->size(); ++index) {
    DeviceOptions device = every_device;
    if (hx_status* status = read_device_entry(services, index, (*list)[index], device)) {
      return status;
    }
    devices.push_back(device);
  }
  *out = std::move(devices);
  return nullptr;
}

}  // namespace

hx_status* parse_options(const hx_core_services& services, const char* text, size_t length,
                         SimOptions* out) {
  SimOptions options;
  options.ops = implemented_ops();
  json parsed;
  if (hx_status* status =
          hxplugin::parse_options_object(services, "sim", text, length, &parsed)) {
    return status;
  }
  // Every device's figures, but those its entry in "devices" overrides. The entries are read
  // after the loop, which may meet "devices" before the plugin-level figures they start from.
  DeviceOptions every_device;
  std::optional<int32_t> device_count;
  for (const auto& [key, value] : parsed.items()) {
    hx_status* status = nullptr;
    bool figure = false;
    if (hx_status* figure_status =
            read_figure(services, key, key, value, every_device.perf, &figure)) {
      return figure_status;
    }
    if (figure) continue;
    if (key == "device_type") {
      status = read_device_type(services, value, options);
    } else if (key == "device_count") {
      status = read_device_count(services, value, &device_count);
    } else if (key == "devices") {
      status = check_device_list(services, value);
    } else if (key == "memory_mb") {
      status = read_memory_mb(services, "memory_mb", value, &every_device.memory_mb);
    } else if (key == "random_seed") {
      status = read_random_seed(services, value, &every_device.perf.random_seed);
    } else if (key == "ops") {
      status = read_op_list(services, "ops", value, &options.ops);
    } else if (key == "op_models") {
      status = read_op_models(services, "op_models", value, every_device.perf.ops);
    } else if (key == "fault_ops") {
      status = read_op_list(services, "fault_ops", value, &options.fault_ops);
    } else if (key == "placement_class") {
      status = read_placement_class(services, value, options);
    } else if (key == "max_allocation") {
      status = read_byte_count(services, "max_allocation", value, &options.max_allocation);
    } else if (key == "alignment") {
      status = read_alignment(services, value, options);
    } else if (key == "min_alignment") {
      // Not checked against alignment here: the core's check of what a plugin declares is
      // what tests of it reach through this.
      status = read_byte_count(services, "min_alignment", value, &options.min_alignment);
    } else if (key == "max_binding") {
      status = read_byte_count(services, "max_binding", value, &options.max_binding);
    } else if (key == "host_waits") {
      status = read_flag(services, "host_waits", value, &options.host_waits);
    } else if (key == "report_memory") {
      status = read_flag(services, "report_memory", value, &options.report_memory);
    } else if (key == "pinned_memory") {
      status = read_flag(services, "pinned_memory", value, &options.pinned_memory);
    } else if (key == "pinned_buffers") {
      status = read_flag(services, "pinned_buffers", value, &options.pinned_buffers);
    } else if (key == "recording") {
      status = read_flag(services, "recording", value, &options.recording);
    } else {
      status = hxplugin::make_status(
          services, HX_INVALID_ARGUMENT,
          "sim plugin options: unknown option '%s'; the options are device_type, device_count, "
          "devices, memory_mb, ops, placement_class, max_allocation, alignment, min_alignment, "
          "max_binding, host_waits, report_memory, pinned_memory, pinned_buffers, recording, fault_ops, "
          "op_models, %s and random_seed",
          key.c_str(), figure_names().c_str());
    }
    if (status != nullptr) return status;
  }
  const auto device_list = parsed.find("devices");
  if (hx_status* status =
          resolve_devices(services, every_device, device_count,
                          device_list == parsed.end() ? nullptr : &*device_list,
                          &options.devices)) {
    return status;
  }
  *out = std::move(options);
  return nullptr;
}

}  // namespace hxsim
