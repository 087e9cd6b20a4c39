#include "options.hpp"

#include <hxplugin/options_object.hpp>
#include <hxplugin/status.hpp>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <nlohmann/json.hpp>

#include "kernels/kernel_registry.hpp"

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
                             SimOptions& options) {
  // JSON text parses non-negative integers as unsigned, negative ones as signed.
  if (!value.is_number_unsigned() ||
      value.get<uint64_t>() > static_cast<uint64_t>(kMaxDeviceCount)) {
    return hxplugin::make_status(
        services, HX_INVALID_ARGUMENT,
        "sim plugin option 'device_count': expected an integer from 0 to %d, got "
        "%s",
        static_cast<int>(kMaxDeviceCount), shown(value).c_str());
  }
  options.device_count = static_cast<int32_t>(value.get<uint64_t>());
  return nullptr;
}

hx_status* read_memory_mb(const hx_core_services& services, const json& value,
                          SimOptions& options) {
  if (!value.is_number_unsigned() || value.get<uint64_t>() == 0 ||
      value.get<uint64_t>() > kMaxMemoryMb) {
    return hxplugin::make_status(
        services, HX_INVALID_ARGUMENT,
        "sim plugin option 'memory_mb': expected an integer from 1 to %llu, got "
        "%s",
        static_cast<unsigned long long>(kMaxMemoryMb), shown(value).c_str());
  }
  options.memory_mb = value.get<uint64_t>();
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

hx_status* read_max_allocation(const hx_core_services& services, const json& value,
                               SimOptions& options) {
  if (!value.is_number_unsigned() || value.get<uint64_t>() == 0 ||
      value.get<uint64_t>() > kMaxBytes) {
    return bad_value(services, "max_allocation", "a number of bytes from 1 to 2^60", value);
  }
  options.max_allocation = value.get<uint64_t>();
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

// The model's figures: rates in GFLOP/s or GB/s, times in microseconds. Bounded so that a
// typo cannot make one item sleep for hours.
constexpr double kMaxRate = 1e9;
constexpr double kMaxMicroseconds = 1e7;  // 10 s

hx_status* read_figure(const hx_core_services& services, const char* option, double limit,
                       const json& value, double* out) {
  if (!value.is_number() || !(value.get<double>() >= 0) || value.get<double>() > limit) {
    char expected[96];
    std::snprintf(expected, sizeof expected, "a number from 0 (none) to %g", limit);
    return bad_value(services, option, expected, value);
  }
  *out = value.get<double>();
  return nullptr;
}

// The model option `key` into `perf`; *known = false when `key` is not one.
hx_status* read_perf(const hx_core_services& services, const std::string& key, const json& value,
                     PerfOptions& perf, bool* known) {
  struct Figure {
    const char* name;
    double limit;
    double* field;
  };
  const Figure figures[] = {
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
  };
  *known = true;
  for (const Figure& figure : figures) {
    if (key == figure.name) {
      return read_figure(services, figure.name, figure.limit, value, figure.field);
    }
  }
  if (key == "random_seed") {
    if (!value.is_number_unsigned()) {
      return bad_value(services, "random_seed", "an integer from 0 to 2^64-1", value);
    }
    perf.random_seed = value.get<uint64_t>();
    return nullptr;
  }
  *known = false;
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
  for (const auto& [key, value] : parsed.items()) {
    hx_status* status = nullptr;
    bool perf_option = false;
    if (hx_status* perf_status = read_perf(services, key, value, options.perf, &perf_option)) {
      return perf_status;
    }
    if (perf_option) continue;
    if (key == "device_type") {
      status = read_device_type(services, value, options);
    } else if (key == "device_count") {
      status = read_device_count(services, value, options);
    } else if (key == "memory_mb") {
      status = read_memory_mb(services, value, options);
    } else if (key == "ops") {
      status = read_op_list(services, "ops", value, &options.ops);
    } else if (key == "fault_ops") {
      status = read_op_list(services, "fault_ops", value, &options.fault_ops);
    } else if (key == "placement_class") {
      status = read_placement_class(services, value, options);
    } else if (key == "max_allocation") {
      status = read_max_allocation(services, value, options);
    } else if (key == "alignment") {
      status = read_alignment(services, value, options);
    } else if (key == "report_memory") {
      status = read_flag(services, "report_memory", value, &options.report_memory);
    } else if (key == "pinned_memory") {
      status = read_flag(services, "pinned_memory", value, &options.pinned_memory);
    } else {
      status = hxplugin::make_status(services, HX_INVALID_ARGUMENT,
                                     "sim plugin options: unknown option '%s'; the options are "
                                     "device_type, device_count, memory_mb, ops, "
                                     "placement_class, max_allocation, alignment, "
                                     "report_memory, pinned_memory, fault_ops, "
                                     "matmul_gflops, elementwise_gbps, "
                                     "launch_latency_us, h2d_gbps, h2d_latency_us, d2h_gbps, "
                                     "d2h_latency_us, d2d_gbps, d2d_latency_us, "
                                     "random_delay_us and random_seed",
                                     key.c_str());
    }
    if (status != nullptr) return status;
  }
  *out = std::move(options);
  return nullptr;
}

}  // namespace hxsim
