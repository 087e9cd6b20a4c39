#include "device_cache.hpp"

#include <hxcommon/cache_file.hpp>
#include <nlohmann/json.hpp>

#include <stdexcept>

namespace hxopencl {
namespace {

using nlohmann::json;

// Another format, written by another version of the plugin, reads as no cache.
constexpr int kFormat = 1;
// Far more than any real file (a few hundred bytes per device).
constexpr size_t kMaxFileBytes = 1 << 20;

json to_json(const DeviceFacts& facts) {
  return {{"platform", facts.platform},
          {"name", facts.name},
          {"vendor", facts.vendor},
          {"version", facts.version},
          {"type", facts.type},
          {"memory_total", facts.memory_total},
          {"max_allocation", facts.max_allocation},
          {"alignment", facts.alignment},
          {"compute_units", facts.compute_units},
          {"host_unified_memory", facts.host_unified_memory},
          {"has_fp64", facts.has_fp64},
          {"max_work_group_size", facts.max_work_group_size}};
}

// Throws nlohmann's exceptions for a missing field or one of another type, and out_of_range for
// facts the plugin would never have read; the caller takes any of them as no cache.
DeviceFacts from_json(const json& value) {
  DeviceFacts facts;
  value.at("platform").get_to(facts.platform);
  value.at("name").get_to(facts.name);
  value.at("vendor").get_to(facts.vendor);
  value.at("version").get_to(facts.version);
  value.at("type").get_to(facts.type);
  value.at("memory_total").get_to(facts.memory_total);
  value.at("max_allocation").get_to(facts.max_allocation);
  value.at("alignment").get_to(facts.alignment);
  value.at("compute_units").get_to(facts.compute_units);
  value.at("host_unified_memory").get_to(facts.host_unified_memory);
  value.at("has_fp64").get_to(facts.has_fp64);
  value.at("max_work_group_size").get_to(facts.max_work_group_size);
  // The ABI's range for the alignment, and what allocations are checked against.
  if (facts.alignment < 1 || facts.alignment > 4096 || facts.max_allocation > facts.memory_total ||
      facts.compute_units < 0) {
    throw std::out_of_range("device facts out of range");
  }
  return facts;
}

}  // namespace

std::string device_cache_file() { return hxcommon::cache_file_path("opencl-devices"); }

std::optional<std::vector<DeviceFacts>> read_device_cache(const std::string& file,
                                                          const std::string& fingerprint) {
  const std::optional<std::string> text = hxcommon::read_small_file(file, kMaxFileBytes);
  if (!text) return std::nullopt;
  try {
    const json cache = json::parse(*text);
    if (cache.at("format").get<int>() != kFormat ||
        cache.at("fingerprint").get<std::string>() != fingerprint) {
      return std::nullopt;
    }
    std::vector<DeviceFacts> devices;
    for (const json& device : cache.at("devices")) devices.push_back(from_json(device));
    if (devices.empty()) return std::nullopt;  // never written so: somebody else's file
    return devices;
  } catch (const std::exception&) {  // not JSON, or not of this shape
    return std::nullopt;
  }
}

std::string write_device_cache(const std::string& file, const std::string& fingerprint,
                               const std::vector<DeviceFacts>& devices) {
  json cache = {{"format", kFormat}, {"fingerprint", fingerprint}, {"devices", json::array()}};
  for (const DeviceFacts& facts : devices) cache["devices"].push_back(to_json(facts));
  // Bytes that are not UTF-8 (in a driver's name, a path) are written as replacement
  // characters: the file stays JSON, and such a fingerprint just never matches.
  return hxcommon::replace_cache_file(
      file, cache.dump(1, ' ', false, json::error_handler_t::replace) + "\n");
}

}  // namespace hxopencl
