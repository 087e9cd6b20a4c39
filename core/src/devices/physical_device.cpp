#include "devices/physical_device.hpp"

#include <cstring>

#include "device_name.hpp"
#include "status.hpp"

namespace hxrt::detail {
namespace {

std::string text_or_empty(const char* text) { return text ? text : ""; }

}  // namespace

PhysicalDevice::PhysicalDevice(std::shared_ptr<Plugin> plugin, int ordinal)
    : plugin_(std::move(plugin)), ordinal_(ordinal) {
  const hx_plugin_api& api = plugin_->api();
  short_name_ = short_device_name(type(), ordinal_);
  throw_if_error(api.device_get(plugin_->state(), ordinal, &handle_),
                 "plugin '" + plugin_->name() + "' device_get(" + std::to_string(ordinal) + ")");

  hx_device_properties props;
  std::memset(&props, 0, sizeof props);
  props.struct_size = HX_DEVICE_PROPERTIES_STRUCT_SIZE;
  props.numa_node = -1;
  throw_if_error(api.device_properties(handle_, &props),
                 "plugin '" + plugin_->name() + "' device_properties");

  properties_.name = "/physical_device:" + short_name_;
  properties_.short_name = short_name_;
  properties_.type = type();
  properties_.id = ordinal_;
  properties_.plugin = plugin_->name();
  properties_.product = text_or_empty(props.name);
  properties_.memory_total = props.memory_total;

  descriptive_.type = type();
  descriptive_.physical = short_name_;
  descriptive_.plugin = plugin_->name();
  descriptive_.product = properties_.product;
  descriptive_.vendor = text_or_empty(props.vendor);
  descriptive_.bus_id = text_or_empty(props.bus_id);
  descriptive_.arch = text_or_empty(props.arch);
  descriptive_.memory_total = props.memory_total;
  descriptive_.numa_node = props.numa_node;
  descriptive_.compute_units = props.compute_units;
}

}  // namespace hxrt::detail
