#include "plugin_state.hpp"

#include <hxplugin/status.hpp>

#include <cstdarg>
#include <cstdio>

#include "device_cache.hpp"
#include "driver_setup_lock.hpp"
#include "installation.hpp"

namespace hxopencl {
namespace {

std::vector<DeviceFacts> facts_of(const Discovery& found) {
  std::vector<DeviceFacts> facts;
  for (const FoundDevice& device : found.devices) facts.push_back(device.facts);
  return facts;
}

}  // namespace

void OpenClPlugin::list_devices() {
  {
    // Both read the environment, which another instance's discovery may be writing.
    const std::lock_guard<std::mutex> lock(driver_setup_mutex());
    cache_file = device_cache_file();
    fingerprint = installation_fingerprint();
  }
  if (std::optional<std::vector<DeviceFacts>> listed = read_device_cache(cache_file, fingerprint)) {
    for (DeviceFacts& facts : *listed) {
      devices.push_back(std::make_unique<OpenClDevice>(*this, std::move(facts)));
    }
    log(HX_LOG_DEBUG,
        "%zu OpenCL device(s) listed from the device cache %s; OpenCL is loaded at their first "
        "use",
        devices.size(), cache_file.c_str());
    return;
  }
  Discovery found = discover_platforms(*this);
  for (FoundDevice& candidate : found.devices) {
    auto device = std::make_unique<OpenClDevice>(*this, candidate.facts);
    if (hx_status* status = device->bind(*candidate.platform, candidate.id)) {
      log(HX_LOG_WARNING, "OpenCL device skipped: %s", services->status_message(status));
      services->status_destroy(status);
      found.complete = false;
      continue;
    }
    devices.push_back(std::move(device));
  }
  if (devices.empty()) {
    no_devices_reason = found.no_devices_reason.empty()
                            ? std::string("no usable OpenCL device (the warnings say why)")
                            : found.no_devices_reason;
  }
  // A failed write costs a discovery at the next start-up, nothing else: not worth a warning.
  if (found.complete && !devices.empty()) {
    const std::string failure = write_device_cache(cache_file, fingerprint, facts_of(found));
    if (failure.empty()) {
      log(HX_LOG_DEBUG, "OpenCL devices discovered and kept in the device cache %s",
          cache_file.c_str());
    } else {
      log(HX_LOG_DEBUG, "OpenCL devices discovered, not kept in the device cache: %s",
          failure.c_str());
    }
  }
}

void OpenClPlugin::bind_to_found() {
  Discovery found = discover_platforms(*this);
  std::vector<bool> claimed(found.devices.size(), false);
  bool as_listed = found.devices.size() == devices.size();
  for (size_t ordinal = 0; ordinal < devices.size(); ++ordinal) {
    OpenClDevice& device = *devices[ordinal];
    if (device.bound.load(std::memory_order_relaxed)) continue;  // by an earlier try that threw
    size_t match = 0;
    while (match < found.devices.size() &&
           (claimed[match] || !found.devices[match].facts.same_device(device.facts))) {
      ++match;
    }
    if (match == found.devices.size()) {
      as_listed = false;
      device.unbound_reason =
          "opencl plugin: device " + std::to_string(ordinal) + " ('" + device.facts.name +
          "' of platform '" + device.facts.platform + "') was listed from the device cache " +
          cache_file + ", but OpenCL no longer has it as it was (" +
          (found.devices.empty() ? found.no_devices_reason
                                 : std::to_string(found.devices.size()) + " device(s) found") +
          "): the installation changed in a way the cache's fingerprint does not show. The "
          "cache now holds what OpenCL has: restart the program to use that";
      continue;
    }
    claimed[match] = true;
    if (hx_status* status = device.bind(*found.devices[match].platform, found.devices[match].id)) {
      device.unbound_reason = services->status_message(status);
      services->status_destroy(status);
    }
  }
  if (as_listed) return;
  // The listing was wrong: the next start-up lists what OpenCL has now, or discovers again.
  if (found.complete && !found.devices.empty()) {
    write_device_cache(cache_file, fingerprint, facts_of(found));
  } else {
    std::remove(cache_file.c_str());
  }
}

hx_status* OpenClPlugin::bind_listed_devices(const OpenClDevice& device) {
  return hxplugin::guarded(*services, kPluginName, [&]() -> hx_status* {
    std::call_once(listed_bound_, [this] { bind_to_found(); });
    if (device.bound.load(std::memory_order_acquire)) return nullptr;
    return hxplugin::make_status(*services, HX_UNAVAILABLE, "%s", device.unbound_reason.c_str());
  });
}

void OpenClPlugin::log(hx_log_level level, const char* format, ...) const {
  va_list arguments;
  va_start(arguments, format);
  hxplugin::log_v(*services, core, level, format, arguments);
  va_end(arguments);
}

}  // namespace hxopencl
