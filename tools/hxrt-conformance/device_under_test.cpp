#include "device_under_test.hpp"

namespace hxrt_conformance {

std::vector<DeviceUnderTest> devices_under_test(const PluginSession& session) {
  std::vector<DeviceUnderTest> devices;
  for (size_t ordinal = 0; ordinal < session.devices().size(); ++ordinal) {
    devices.push_back(DeviceUnderTest{&session.api(), session.devices()[ordinal],
                                      "device " + std::to_string(ordinal)});
  }
  return devices;
}

}  // namespace hxrt_conformance
