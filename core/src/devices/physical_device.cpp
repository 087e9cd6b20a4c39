#include "devices/physical_device.hpp"

#include <cstring>

#include "base/device_name.hpp"
#include "hxrt/plugin_vocabulary.h"
#include "plugins/plugin_limits.hpp"
#include "plugins/plugin_text.hpp"
#include "base/status.hpp"

namespace hxrt::detail {
namespace {

std::string property_text(const char* text) { return plugin_text(text, kMaxPropertyLength); }

// The figures the core computes with or shows as facts: a plugin's garbage there would
// overflow the arithmetic of memory limits, or leave the core guessing what the device is, so
// the device is left out instead.
void check_figures(const hx_device_properties& props, const std::string& context) {
  std::string problem;
  if (props.memory_total > kMaxDeviceMemory) {
    problem = "memory_total " + std::to_string(props.memory_total) +
              ", more than 2^60 bytes (0 means unknown)";
  } else if (props.numa_node < -1) {
    problem = "numa_node " + std::to_string(props.numa_node) + ", below -1 (unknown)";
  } else if (props.compute_units < 0) {
    problem = "compute_units " + std::to_string(props.compute_units) + ", below 0 (unknown)";
  } else if (hx_memory_kind_name(props.memory_kind) == nullptr) {
    problem = "memory_kind " + std::to_string(props.memory_kind) +
              ", which is not an hx_memory_kind (HX_MEMORY_DEVICE, HX_MEMORY_HOST_VISIBLE or "
              "HX_MEMORY_HOST)";
  } else if (hx_placement_class_name(props.placement_class) == nullptr) {
    problem = "placement_class " + std::to_string(props.placement_class) +
              ", which is not an hx_placement_class (HX_PLACEMENT_DISCRETE_ACCELERATOR, "
              "HX_PLACEMENT_HOST_ACCELERATOR or HX_PLACEMENT_CPU)";
  } else if (hx_cross_device_wait_name(props.cross_device_wait) == nullptr) {
    problem = "cross_device_wait " + std::to_string(props.cross_device_wait) +
              ", which is not an hx_cross_device_wait (HX_WAIT_IN_PLUGIN or HX_WAIT_ON_HOST)";
  } else if (props.alignment > kMaxDeviceAlignment ||
             (props.alignment & (props.alignment - 1)) != 0) {
    problem = "alignment " + std::to_string(props.alignment) + ", not a power of two from 1 to " +
              std::to_string(kMaxDeviceAlignment) + " (0 means 256)";
  } else if (props.min_alignment != 0 &&
             ((props.min_alignment & (props.min_alignment - 1)) != 0 ||
              props.min_alignment >
                  (props.alignment == 0 ? kDefaultDeviceAlignment : props.alignment))) {
    problem = "min_alignment " + std::to_string(props.min_alignment) +
              ", not a power of two no larger than its alignment (0 means the alignment)";
  }
  if (!problem.empty()) {
    throw Error(StatusCode::kInternal,
                context + " reported " + problem + "; the device is left out until the plugin "
                "is fixed");
  }
}

}  // namespace

PhysicalDevice::PhysicalDevice(std::shared_ptr<Plugin> plugin, int ordinal, int id)
    : plugin_(std::move(plugin)), ordinal_(ordinal) {
  const hx_plugin_api& api = plugin_->api();
  short_name_ = short_device_name(type(), id);
  const std::string get_context =
      "plugin '" + plugin_->name() + "' device_get(" + std::to_string(ordinal) + ")";
  throw_if_error(api.device_get(plugin_->state(), ordinal, &handle_), get_context);
  if (handle_ == nullptr) {
    // The core passes NULL where there is no device (shape inference), so NULL is no handle.
    throw Error(StatusCode::kInternal,
                get_context + " succeeded but returned a NULL device handle; fix the plugin");
  }

  hx_device_properties props;
  std::memset(&props, 0, sizeof props);
  props.struct_size = HX_DEVICE_PROPERTIES_STRUCT_SIZE;
  props.numa_node = -1;
  const std::string properties_context =
      "plugin '" + plugin_->name() + "' device_properties(" + short_name_ + ")";
  throw_if_error(api.device_properties(handle_, &props), properties_context);
  check_figures(props, properties_context);

  properties_.name = "/physical_device:" + short_name_;
  properties_.short_name = short_name_;
  properties_.type = type();
  properties_.id = id;
  properties_.plugin = plugin_->name();
  properties_.product = property_text(props.name);
  properties_.memory_total = props.memory_total;
  properties_.placement_class = hx_placement_class_name(props.placement_class);
  placement_class_ = static_cast<hx_placement_class>(props.placement_class);
  memory_kind_ = static_cast<hx_memory_kind>(props.memory_kind);
  live_buffers_ = std::make_unique<LiveBuffers>(memory_kind_ == HX_MEMORY_HOST);
  // 0: no smaller than the memory; the core keeps every region at or under it.
  max_allocation_ = props.max_allocation;
  alignment_ = props.alignment == 0 ? kDefaultDeviceAlignment : props.alignment;
  min_alignment_ = props.min_alignment == 0 ? alignment_ : props.min_alignment;
  max_binding_ = props.max_binding;
  waits_on_host_ = props.cross_device_wait == HX_WAIT_ON_HOST;

  descriptive_.type = type();
  descriptive_.physical = short_name_;
  descriptive_.plugin = plugin_->name();
  descriptive_.product = properties_.product;
  descriptive_.vendor = property_text(props.vendor);
  descriptive_.bus_id = property_text(props.bus_id);
  descriptive_.arch = property_text(props.arch);
  descriptive_.memory_total = props.memory_total;
  descriptive_.numa_node = props.numa_node;
  descriptive_.compute_units = props.compute_units;
  descriptive_.memory_kind = hx_memory_kind_name(props.memory_kind);
  descriptive_.placement_class = properties_.placement_class;
  descriptive_.max_allocation = max_allocation_;
  descriptive_.alignment = alignment_;
  descriptive_.min_alignment = min_alignment_;
  descriptive_.max_binding = max_binding_;
  descriptive_.cross_device_wait = hx_cross_device_wait_name(props.cross_device_wait);
}

}  // namespace hxrt::detail
