#include "json_report.hpp"

namespace hxrt_info {
namespace {

nlohmann::ordered_json plugin_json(const hxrt::PluginReport& plugin) {
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

nlohmann::ordered_json device_json(const hxrt::DeviceInfo& device) {
  return {{"name", device.name},
          {"short_name", device.short_name},
          {"type", device.type},
          {"id", device.id},
          {"plugin", device.plugin},
          {"product", device.product},
          {"vendor", device.vendor},
          {"arch", device.arch},
          {"bus_id", device.bus_id},
          {"numa_node", device.numa_node},
          {"compute_units", device.compute_units},
          {"memory_total_bytes", device.memory_total},
          {"memory_free_bytes", device.memory_free}};
}

nlohmann::ordered_json kernel_json(const hxrt::KernelInfo& kernel) {
  nlohmann::ordered_json dtypes = nlohmann::ordered_json::array();
  for (hxrt::DType dtype : kernel.dtypes) dtypes.push_back(hxrt::dtype_name(dtype));
  return {{"op", kernel.op},
          {"device_type", kernel.device_type},
          {"dtypes", dtypes},
          {"priority", kernel.priority},
          {"plugin", kernel.plugin}};
}

}  // namespace

nlohmann::ordered_json json_report(const Snapshot& snapshot) {
  nlohmann::ordered_json plugins = nlohmann::ordered_json::array();
  for (const hxrt::PluginReport& plugin : snapshot.plugins) plugins.push_back(plugin_json(plugin));
  nlohmann::ordered_json devices = nlohmann::ordered_json::array();
  for (const hxrt::DeviceInfo& device : snapshot.devices) devices.push_back(device_json(device));
  nlohmann::ordered_json kernels = nlohmann::ordered_json::array();
  for (const hxrt::KernelInfo& kernel : snapshot.kernels) kernels.push_back(kernel_json(kernel));
  return {{"plugins", plugins}, {"devices", devices}, {"kernels", kernels}};
}

}  // namespace hxrt_info
