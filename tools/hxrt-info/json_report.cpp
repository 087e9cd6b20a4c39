#include "json_report.hpp"

#include <cstdint>

namespace hxrt_info {
namespace {

using nlohmann::ordered_json;

ordered_json plugin_json(const hxrt::PluginReport& plugin) {
  return {{"path", plugin.path},
          {"loaded", plugin.loaded},
          {"reason", plugin.reason},
          {"name", plugin.name},
          {"version", plugin.version},
          {"abi_version", plugin.abi_version},
          {"device_type", plugin.device_type},
          {"device_count", plugin.device_count},
          {"note", plugin.note}};
}

ordered_json physical_device_json(const hxrt::PhysicalDeviceInfo& device) {
  return {{"name", device.name},
          {"short_name", device.short_name},
          {"type", device.type},
          {"id", device.id},
          {"plugin", device.plugin},
          {"product", device.product},
          {"memory_total_bytes", device.memory_total},
          // Once initialised, every visible device has at least one logical device.
          {"visible", !device.logical.empty()},
          {"logical", device.logical}};
}

// The MemoryStats field names, in bytes; "bytes_limit" is null when there is no limit.
ordered_json memory_json(const hxrt::MemoryStats& memory) {
  return {{"bytes_in_use", memory.bytes_in_use},
          {"peak_bytes_in_use", memory.peak_bytes_in_use},
          {"bytes_reserved", memory.bytes_reserved},
          {"bytes_limit",
           memory.bytes_limit == SIZE_MAX ? ordered_json() : ordered_json(memory.bytes_limit)},
          {"allocation_count", memory.allocation_count},
          {"total_allocations", memory.total_allocations},
          {"largest_free_block", memory.largest_free_block},
          {"fragmentation", memory.fragmentation}};
}

ordered_json device_json(const DeviceSnapshot& snapshot) {
  const hxrt::DeviceInfo& device = snapshot.info;
  return {{"name", device.name},
          {"task", device.task},
          {"local", device.local},  // false: another task's, with fewer fields filled
          {"short_name", device.short_name},
          {"type", device.type},
          {"id", device.id},
          {"physical", device.physical},
          {"plugin", device.plugin},
          {"product", device.product},
          {"vendor", device.vendor},
          {"arch", device.arch},
          {"bus_id", device.bus_id},
          {"numa_node", device.numa_node},
          {"compute_units", device.compute_units},
          {"placement_class", device.placement_class},
          {"memory_kind", device.memory_kind},
          {"memory_total_bytes", device.memory_total},
          // null: the plugin cannot tell
          {"memory_free_bytes",
           device.memory_free ? ordered_json(*device.memory_free) : ordered_json(nullptr)},
          {"max_allocation_bytes", device.max_allocation},
          {"alignment_bytes", device.alignment},
          {"min_alignment_bytes", device.min_alignment},  // what its kernels need
          {"max_binding_bytes", device.max_binding},  // 0: no limit of its own
          {"cross_device_wait", device.cross_device_wait},
          {"memory_policy", device.memory_policy},
          {"memory", snapshot.memory ? memory_json(*snapshot.memory) : ordered_json(nullptr)}};
}

ordered_json kernel_json(const hxrt::KernelInfo& kernel) {
  ordered_json dtypes = ordered_json::array();
  for (hxrt::DType dtype : kernel.dtypes) dtypes.push_back(hxrt::dtype_name(dtype));
  return {{"op", kernel.op},
          {"device_type", kernel.device_type},
          {"dtypes", dtypes},
          {"priority", kernel.priority},
          {"plugin", kernel.plugin}};
}

}  // namespace

ordered_json json_report(const Snapshot& snapshot) {
  ordered_json plugins = ordered_json::array();
  for (const hxrt::PluginReport& plugin : snapshot.plugins) plugins.push_back(plugin_json(plugin));
  ordered_json physical = ordered_json::array();
  for (const hxrt::PhysicalDeviceInfo& device : snapshot.physical) {
    physical.push_back(physical_device_json(device));
  }
  ordered_json devices = ordered_json::array();
  for (const DeviceSnapshot& device : snapshot.devices) devices.push_back(device_json(device));
  ordered_json kernels = ordered_json::array();
  for (const hxrt::KernelInfo& kernel : snapshot.kernels) kernels.push_back(kernel_json(kernel));
  ordered_json tasks = snapshot.cluster.tasks;
  return {{"cluster",
           {{"in_cluster", snapshot.cluster.in_cluster},
            {"task", snapshot.cluster.task},
            {"rank", snapshot.cluster.rank},
            {"tasks", tasks},
            {"mpi_library", snapshot.cluster.mpi_library}}},
          {"plugins", plugins},
          {"physical_devices", physical},
          {"devices", devices},
          {"kernels", kernels}};
}

}  // namespace hxrt_info
