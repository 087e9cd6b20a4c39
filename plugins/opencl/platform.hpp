// Discovery: every device of every OpenCL platform, one context per platform (so that buffers
// and events are shared by the devices of a platform, and copies between them stay on the
// devices).
#pragma once

#include <CL/cl.h>

#include <string>

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

// Fills plugin.platforms and plugin.devices; when it finds no device it says why in
// plugin.no_devices_reason. A platform whose devices or context cannot be had is skipped with
// a warning. Throws only what allocation throws.
void discover_devices(OpenClPlugin& plugin);

}  // namespace hxopencl
