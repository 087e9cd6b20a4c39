#include "device.hpp"

#include <hxplugin/status.hpp>

#include "plugin_state.hpp"

namespace hxsim {

SimDevice::SimDevice(SimPlugin& owner, int32_t ordinal_in, const DeviceOptions& options)
    : plugin(owner),
      ordinal(ordinal_in),
      label("simulated " + owner.options.device_type + " device " + std::to_string(ordinal_in)),
      name(owner.options.device_type + ":" + std::to_string(ordinal_in)),
      bus_id("sim:" + std::to_string(ordinal_in)),
      memory(options.memory_mb << 20),
      counters(transfer_counters(ordinal_in)),
      model(options.perf, ordinal_in) {}

hx_status* device_count(hx_plugin* plugin, int32_t* out_count) {
  const SimPlugin& state = from_handle(plugin);
  *out_count = static_cast<int32_t>(state.devices.size());
  if (state.devices.empty()) {
    return state.services->status_create(
        HX_UNAVAILABLE, "no simulated devices configured: set plugins.options.sim.device_count");
  }
  return nullptr;
}

hx_status* device_get(hx_plugin* plugin, int32_t ordinal, hx_device** out_device) {
  const SimPlugin& state = from_handle(plugin);
  if (ordinal < 0 || static_cast<size_t>(ordinal) >= state.devices.size()) {
    return hxplugin::make_status(
        *state.services, HX_OUT_OF_RANGE,
        "sim plugin: device ordinal %d does not exist (there are %zu devices)",
        static_cast<int>(ordinal), state.devices.size());
  }
  *out_device = to_handle(state.devices[static_cast<size_t>(ordinal)].get());
  return nullptr;
}

hx_status* device_properties(hx_device* device, hx_device_properties* props) {
  const SimDevice& sim = from_handle(device);
  // Written field by field: an older core's struct may end before the newer fields.
  const size_t known = props->struct_size;
  if (known >= HX_STRUCT_SIZE(hx_device_properties, name)) {
    props->name = "hxrt simulated accelerator";
  }
  if (known >= HX_STRUCT_SIZE(hx_device_properties, vendor)) props->vendor = "hxrt";
  if (known >= HX_STRUCT_SIZE(hx_device_properties, bus_id)) props->bus_id = sim.bus_id.c_str();
  if (known >= HX_STRUCT_SIZE(hx_device_properties, arch)) props->arch = "sim";
  if (known >= HX_STRUCT_SIZE(hx_device_properties, memory_total)) {
    props->memory_total = sim.memory.budget();
  }
  if (known >= HX_STRUCT_SIZE(hx_device_properties, numa_node)) props->numa_node = -1;
  if (known >= HX_STRUCT_SIZE(hx_device_properties, compute_units)) props->compute_units = 1;
  const SimOptions& options = sim.plugin.options;
  if (known >= HX_STRUCT_SIZE(hx_device_properties, memory_kind)) {
    props->memory_kind = HX_MEMORY_DEVICE;  // handles are ids: the host cannot reach them
  }
  if (known >= HX_STRUCT_SIZE(hx_device_properties, placement_class)) {
    props->placement_class = options.placement_class;
  }
  if (known >= HX_STRUCT_SIZE(hx_device_properties, max_allocation)) {
    props->max_allocation = options.max_allocation;
  }
  if (known >= HX_STRUCT_SIZE(hx_device_properties, alignment)) {
    props->alignment = options.alignment;
  }
  if (known >= HX_STRUCT_SIZE(hx_device_properties, max_binding)) {
    props->max_binding = options.max_binding;
  }
  if (known >= HX_STRUCT_SIZE(hx_device_properties, cross_device_wait)) {
    props->cross_device_wait = options.host_waits ? HX_WAIT_ON_HOST : HX_WAIT_IN_PLUGIN;
  }
  if (known >= HX_STRUCT_SIZE(hx_device_properties, min_alignment)) {
    props->min_alignment = options.min_alignment;
  }
  return nullptr;
}

}  // namespace hxsim
