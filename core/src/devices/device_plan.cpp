#include "devices/device_plan.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>

#include "hxrt/error.hpp"
#include "memory/allocator_stats.hpp"

namespace hxrt::detail {
namespace {

constexpr uint64_t kMiB = uint64_t{1} << 20;

// A layer's limit_mb or fraction replaces both of the layer below: "GPU:0": {limit_mb}
// over "GPU": {fraction} means GPU:0 has that limit, not the smaller of the two.
void overlay(MemoryPolicy& resolved, const MemoryPolicy& layer) {
  if (layer.preallocate) resolved.preallocate = layer.preallocate;
  if (layer.release_unused) resolved.release_unused = layer.release_unused;
  if (layer.limit_mb || layer.fraction) {
    resolved.limit_mb = layer.limit_mb;
    resolved.fraction = layer.fraction;
  }
}

const MemoryPolicy* find_policy(const DeviceSettings& settings, const std::string& key) {
  auto it = settings.memory.find(key);
  return it == settings.memory.end() ? nullptr : &it->second;
}

// The physical device's budget in bytes; SIZE_MAX when neither limit_mb nor fraction is set.
size_t physical_limit(const PhysicalDeviceInfo& device, const MemoryPolicy& policy) {
  size_t limit = SIZE_MAX;
  if (policy.limit_mb) limit = static_cast<size_t>(*policy.limit_mb * kMiB);
  if (policy.fraction) {
    if (device.memory_total == 0) {
      std::ostringstream fraction;
      fraction << *policy.fraction;
      throw Error(StatusCode::kInvalidArgument,
                  "memory fraction " + fraction.str() + ": plugin '" + device.plugin +
                      "' reports no total memory for " + device.short_name +
                      ", so a fraction of it means nothing; set limit_mb instead");
    }
    // A share a size_t cannot hold (all of a device that reports UINT64_MAX bytes, which
    // rounds up to 2^64 as a double) limits nothing; converting it would be undefined.
    const double share = std::floor(*policy.fraction * static_cast<double>(device.memory_total));
    if (share < static_cast<double>(SIZE_MAX)) limit = std::min(limit, static_cast<size_t>(share));
  }
  return limit;
}

std::string describe_policy(const BfcOptions& options) {
  std::string text = options.preallocate ? "preallocate" : "growth";
  text += options.limit_bytes == SIZE_MAX ? ", no limit"
                                          : ", limit " + format_bytes(options.limit_bytes);
  if (options.release_unused) text += ", release unused";
  if (!options.thread_caches) text += ", no thread caches";
  return text;
}

// Each logical device's limit: its own memory_limit_mb, else an equal share of what the
// others leave of the physical budget (no limit when the physical device has none).
std::vector<size_t> split_limits(const PhysicalDeviceInfo& device, size_t budget,
                                 const std::vector<LogicalDeviceConfig>& split) {
  // Each limit fits in bytes (the config caps memory_limit_mb); their sum saturates instead
  // of wrapping round to a small number that every check below would pass.
  uint64_t asked_bytes = 0;
  size_t unset = 0;
  for (const LogicalDeviceConfig& logical : split) {
    if (!logical.memory_limit_mb) {
      ++unset;
    } else if (__builtin_add_overflow(asked_bytes, *logical.memory_limit_mb * kMiB,
                                      &asked_bytes)) {
      asked_bytes = UINT64_MAX;
    }
  }
  if (budget != SIZE_MAX && asked_bytes > budget) {
    throw Error(StatusCode::kInvalidArgument,
                "the logical devices of " + device.short_name + " ask for " +
                    format_bytes(asked_bytes) + " in all, more than its memory limit of " +
                    format_bytes(budget) + "; lower their memory_limit_mb or raise the limit");
  }
  if (device.memory_total != 0 && asked_bytes > device.memory_total) {
    throw Error(StatusCode::kInvalidArgument,
                "the logical devices of " + device.short_name + " ask for " +
                    format_bytes(asked_bytes) + " in all, more than the " +
                    format_bytes(device.memory_total) + " the device has");
  }
  const size_t share =
      budget == SIZE_MAX || unset == 0 ? budget : (budget - asked_bytes) / unset;
  std::vector<size_t> limits;
  for (const LogicalDeviceConfig& logical : split) {
    limits.push_back(logical.memory_limit_mb ? static_cast<size_t>(*logical.memory_limit_mb * kMiB)
                                             : share);
  }
  return limits;
}

// The physical devices of `type` that stay visible, as indices into `physical`, in the order
// of their future logical ids.
std::vector<size_t> visible_of_type(const std::vector<PhysicalDeviceInfo>& physical,
                                    const std::string& type, const DeviceSettings& settings) {
  std::vector<size_t> all;
  for (size_t i = 0; i < physical.size(); ++i) {
    if (physical[i].type == type) all.push_back(i);
  }
  std::vector<size_t> visible = all;
  if (settings.visible_devices) {
    std::vector<size_t> listed;
    for (const std::string& name : *settings.visible_devices) {
      for (size_t i : all) {
        if (physical[i].short_name == name) listed.push_back(i);
      }
    }
    const bool type_named = std::any_of(
        settings.visible_devices->begin(), settings.visible_devices->end(),
        [&](const std::string& name) { return name.compare(0, type.size() + 1, type + ":") == 0; });
    if (type_named) visible = listed;
  }
  auto count = settings.device_count.find(type);
  if (count != settings.device_count.end() &&
      visible.size() > static_cast<size_t>(count->second)) {
    visible.resize(static_cast<size_t>(count->second));
  }
  return visible;
}

// Names in the settings of a type that is present, for a device that is not.
void warn_about_absent(const std::vector<PhysicalDeviceInfo>& physical,
                       const DeviceSettings& settings, std::vector<std::string>& warnings) {
  auto check = [&](const std::string& name, const std::string& what) {
    const std::string type = name.substr(0, name.find(':'));
    bool type_present = false, device_present = false;
    for (const PhysicalDeviceInfo& device : physical) {
      type_present |= device.type == type;
      device_present |= device.short_name == name;
    }
    if (type_present && !device_present) {
      warnings.push_back(what + " names " + name + ", which does not exist; ignored");
    }
  };
  if (settings.visible_devices) {
    for (const std::string& name : *settings.visible_devices) check(name, "visible_devices");
  }
  for (const auto& [key, policy] : settings.memory) {
    if (key.find(':') != std::string::npos) check(key, "devices." + key + ".memory");
  }
  for (const auto& [key, split] : settings.logical) check(key, "devices." + key + ".logical");
}

}  // namespace

DevicePlan plan_devices(const std::vector<PhysicalDeviceInfo>& physical,
                        const DeviceSettings& settings) {
  DevicePlan plan;
  warn_about_absent(physical, settings, plan.warnings);

  std::vector<std::string> types;
  for (const PhysicalDeviceInfo& device : physical) {
    if (std::find(types.begin(), types.end(), device.type) == types.end()) {
      types.push_back(device.type);
    }
  }
  for (const std::string& type : types) {
    int next_id = 0;
    for (size_t index : visible_of_type(physical, type, settings)) {
      const PhysicalDeviceInfo& device = physical[index];
      MemoryPolicy policy;
      if (const MemoryPolicy* layer = find_policy(settings, type)) overlay(policy, *layer);
      if (const MemoryPolicy* layer = find_policy(settings, device.short_name)) {
        overlay(policy, *layer);
      }
      if (settings.force_memory_growth && policy.preallocate.value_or(false)) {
        policy.preallocate = false;
        plan.warnings.push_back("HXRT_FORCE_MEMORY_GROWTH=true: " + device.short_name +
                                " grows its memory instead of preallocating as configured");
      }
      const size_t budget = physical_limit(device, policy);

      auto split_it = settings.logical.find(device.short_name);
      const std::vector<LogicalDeviceConfig> split =
          split_it == settings.logical.end() ? std::vector<LogicalDeviceConfig>(1)
                                             : split_it->second;
      const std::vector<size_t> limits = split_limits(device, budget, split);
      for (size_t part = 0; part < split.size(); ++part) {
        LogicalDevicePlan logical{index, next_id++, {}, {}};
        logical.memory.limit_bytes = limits[part];
        logical.memory.release_unused = policy.release_unused.value_or(false);
        logical.memory.preallocate = policy.preallocate.value_or(false);
        logical.memory.thread_caches = settings.thread_caches;
        if (logical.memory.preallocate && logical.memory.limit_bytes == SIZE_MAX) {
          throw Error(StatusCode::kInvalidArgument,
                      "memory policy of " + device.short_name +
                          ": preallocate needs a budget; set limit_mb or fraction in "
                          "devices." + type + ".memory or devices." + device.short_name +
                          ".memory (or memory_limit_mb on each logical device)");
        }
        logical.policy = describe_policy(logical.memory);
        plan.devices.push_back(std::move(logical));
      }
    }
  }
  return plan;
}

}  // namespace hxrt::detail
