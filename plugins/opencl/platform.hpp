// Discovery: every device of every OpenCL platform, one context per platform (so that buffers
// and events are shared by the devices of a platform, and copies between them stay on the
// devices).
#pragma once

#include <CL/cl.h>

#include <string>
#include <vector>

#include "device_facts.hpp"

namespace hxopencl {

struct OpenClPlugin;

// One platform whose context the plugin created; releases the context.
struct Platform {
  Platform(cl_platform_id id, cl_context context) : id(id), context(context) {}
  ~Platform();
  Platform(const Platform&) = delete;
  Platform& operator=(const Platform&) = delete;

  const cl_platform_id id;
  const cl_context context;
};

// A device of an opened platform, with its facts read.
struct FoundDevice {
  const Platform* platform;
  cl_device_id id;
  DeviceFacts facts;
};

struct Discovery {
  std::vector<FoundDevice> devices;  // in platform order, then each platform's own
  // Why there are none; empty when there are some.
  std::string no_devices_reason;
  // False when a platform or device was skipped (with a warning): such a result is not kept in
  // the device cache, so that the next start-up asks again.
  bool complete = true;
};

// Opens every platform that has devices (into plugin.platforms) and reads its devices' facts.
// A platform whose devices or context cannot be had, and a device whose facts cannot be read,
// are skipped with a warning. Throws only what allocation throws. Safe while other instances
// of the plugin discover at the same time, in other threads (driver_setup_lock.hpp).
Discovery discover_platforms(OpenClPlugin& plugin);

}  // namespace hxopencl
