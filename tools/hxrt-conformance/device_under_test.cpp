#include "device_under_test.hpp"

#include <cstring>

namespace hxrt_conformance {
namespace {

// The alignment a device that declares 0 gets (plugin_api.h).
constexpr size_t kDefaultAlignment = 256;
// The largest alignment a device may declare; a larger one is not used as an offset step.
constexpr uint64_t kMostAlignment = 4096;

bool power_of_two(uint64_t value) { return value != 0 && (value & (value - 1)) == 0; }

void read_properties(DeviceUnderTest& device) {
  hx_device_properties props;
  std::memset(&props, 0, sizeof props);
  props.struct_size = HX_DEVICE_PROPERTIES_STRUCT_SIZE;
  const Outcome filled = KitCore::take(device.api->device_properties(device.device, &props));
  if (!filled.ok()) return;
  device.memory_kind = props.memory_kind;
  device.max_allocation = props.max_allocation;
  device.memory_total = props.memory_total;
  device.waits_on_host = props.cross_device_wait == HX_WAIT_ON_HOST;
  // An invalid alignment fails the devices section; the other checks keep the default step.
  if (power_of_two(props.alignment) && props.alignment <= kMostAlignment) {
    device.alignment = static_cast<size_t>(props.alignment);
  } else {
    device.alignment = kDefaultAlignment;
  }
}

}  // namespace

size_t DeviceUnderTest::aligned_offset(size_t offset) const {
  return (offset + alignment - 1) / alignment * alignment;
}

std::vector<DeviceUnderTest> devices_under_test(const PluginSession& session) {
  std::vector<DeviceUnderTest> devices;
  for (size_t ordinal = 0; ordinal < session.devices().size(); ++ordinal) {
    DeviceUnderTest device{&session.api(), session.devices()[ordinal],
                           "device " + std::to_string(ordinal)};
    read_properties(device);
    devices.push_back(device);
  }
  return devices;
}

}  // namespace hxrt_conformance
