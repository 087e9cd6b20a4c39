// One device of the plugin under test with the label the checks name it by, so that a
// failure on a machine with several devices says which one, and the memory facts it declares,
// which the checks hold it to.
#pragma once

#include <hxrt/plugin_api.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "plugin_session.hpp"

namespace hxrt_conformance {

struct DeviceUnderTest {
  const hx_plugin_api* api;
  hx_device* device;
  std::string label;  // "device 0"
  // From device_properties (the defaults when it fails, which the devices section reports).
  int32_t memory_kind = HX_MEMORY_KIND_INVALID;
  size_t alignment = 256;       // declared; 0 reads as 256, as the core reads it
  uint64_t max_allocation = 0;  // 0: no smaller than memory_total
  uint64_t memory_total = 0;
  // HX_WAIT_ON_HOST: the core waits for other devices' events itself, and wait_event is given
  // only the stream's own device's.
  bool waits_on_host = false;

  // Whether the plugin promised that its buffer handles are host addresses.
  bool host_memory() const { return memory_kind == HX_MEMORY_HOST; }
  // `offset` rounded up to the declared alignment: where the core may place a tensor.
  size_t aligned_offset(size_t offset) const;
};

// The devices of an initialised session, labelled by ordinal.
std::vector<DeviceUnderTest> devices_under_test(const PluginSession& session);

}  // namespace hxrt_conformance
