// One device of the plugin under test with the label the checks name it by, so that a
// failure on a machine with several devices says which one.
#pragma once

#include <hxrt/plugin_api.h>

#include <string>
#include <vector>

#include "plugin_session.hpp"

namespace hxrt_conformance {

struct DeviceUnderTest {
  const hx_plugin_api* api;
  hx_device* device;
  std::string label;  // "device 0"
};

// The devices of an initialised session, labelled by ordinal.
std::vector<DeviceUnderTest> devices_under_test(const PluginSession& session);

}  // namespace hxrt_conformance
