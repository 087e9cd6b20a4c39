// The OpenCL plugin's entry point: checks the options (none yet), lists the devices of every
// OpenCL platform (from the device cache when it is current), registers the kernels and hands
// the core its function table. With no OpenCL platform it still loads, with no devices and
// device_count saying why.
#include <hxrt/plugin_api.h>
#include <hxplugin/no_options.hpp>
#include <hxplugin/plugin_init.hpp>

#include "copies.hpp"
#include "device.hpp"
#include "event.hpp"
#include "kernels/kernel_registry.hpp"
#include "memory.hpp"
#include "platform.hpp"
#include "plugin_state.hpp"
#include "queue.hpp"

namespace hxopencl {
namespace {

void shutdown(hx_plugin* plugin) { delete &from_handle(plugin); }

void fill_table(OpenClPlugin& state) {
  hx_plugin_api& api = state.api;
  hxplugin::describe_plugin(api, kPluginName, "0.1.0", "OPENCL", to_handle(&state));
  api.shutdown = shutdown;
  api.device_count = device_count;
  api.device_get = device_get;
  api.device_properties = device_properties;
  // No memory_info: OpenCL 1.2 tells a device's total memory but not how much is free.
  api.allocate = allocate;
  api.deallocate = deallocate;
  api.memset = memset_bytes;
  api.copy_host_to_device = copy_host_to_device;
  api.copy_device_to_host = copy_device_to_host;
  api.copy_device_to_device = copy_device_to_device;
  state.streams = {HX_STREAM_API_STRUCT_SIZE, nullptr,         stream_create,
                   stream_destroy,            stream_synchronize, stream_query,
                   stream_wait_event};
  // No elapsed_ns: OpenCL times commands only on a queue made with CL_QUEUE_PROFILING_ENABLE,
  // which adds to the cost of every command on it, and an event here is a marker, whose
  // profiling times have not been checked across implementations (PoCL, the vendors').
  state.events = {HX_EVENT_API_STRUCT_SIZE, nullptr,           event_create, event_destroy,
                  event_record,             event_synchronize, event_query,  nullptr};
  api.streams = &state.streams;
  api.events = &state.events;
  // No host_memory: OpenCL 1.2 has no page-locked host allocation of its own.
}

hx_status* build(OpenClPlugin& state, hxplugin::OptionsText options) {
  if (hx_status* status =
          hxplugin::check_no_options(*state.services, kPluginName, options.json, options.length)) {
    return status;
  }
  state.list_devices();
  fill_table(state);
  return register_kernels(state);
}

}  // namespace
}  // namespace hxopencl

extern "C" HX_EXPORT hx_status* hx_plugin_init(const hx_plugin_init_args* args,
                                               const hx_plugin_api** out_api) {
  return hxplugin::init_plugin<hxopencl::OpenClPlugin>(args, hxopencl::kPluginName, out_api,
                                                       hxopencl::build);
}
