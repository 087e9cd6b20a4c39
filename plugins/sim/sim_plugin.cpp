// The sim plugin's entry point: reads the options, builds the simulated devices, registers the
// kernels the options name and hands the core its function table.
#include <hxrt/plugin_api.h>
#include <hxplugin/plugin_init.hpp>

#include <memory>

#include "copies.hpp"
#include "device.hpp"
#include "host_memory.hpp"
#include "kernels/kernel_registry.hpp"
#include "memory.hpp"
#include "options.hpp"
#include "plugin_state.hpp"
#include "recordings.hpp"
#include "streams.hpp"

namespace hxsim {
namespace {

void shutdown(hx_plugin* plugin) { delete &from_handle(plugin); }

void fill_table(SimPlugin& state) {
  hx_plugin_api& api = state.api;
  hxplugin::describe_plugin(api, kPluginName, "0.1.0", state.options.device_type.c_str(),
                            to_handle(&state));
  api.shutdown = shutdown;
  api.device_count = device_count;
  api.device_get = device_get;
  api.device_properties = device_properties;
  // Without it the core shows the devices' free memory as unknown.
  api.memory_info = state.options.report_memory ? memory_info : nullptr;
  api.allocate = allocate;
  api.deallocate = deallocate;
  api.memset = memset_bytes;
  api.copy_host_to_device = copy_host_to_device;
  api.copy_device_to_host = copy_device_to_host;
  api.copy_device_to_device = copy_device_to_device;
  api.streams = &kStreamApi;
  api.events = &kEventApi;
  // Not that the simulated devices need it (they copy from any host memory at one speed): it
  // lets the core's staging through page-locked memory be exercised, and seen in the counters.
  api.host_memory = !state.options.pinned_memory ? nullptr
                    : state.options.pinned_buffers ? &kHostMemoryApi
                                                   : &kHostMemoryApiWithoutBuffers;
  api.recording = state.options.recording ? &kRecordingApi : nullptr;
}

hx_status* build(SimPlugin& state, hxplugin::OptionsText options) {
  if (hx_status* status =
          parse_options(*state.services, options.json, options.length, &state.options)) {
    return status;
  }
  for (size_t ordinal = 0; ordinal < state.options.devices.size(); ++ordinal) {
    state.devices.push_back(std::make_unique<SimDevice>(state, static_cast<int32_t>(ordinal),
                                                        state.options.devices[ordinal]));
  }
  fill_table(state);
  return register_kernels(state);
}

}  // namespace
}  // namespace hxsim

extern "C" HX_EXPORT hx_status* hx_plugin_init(const hx_plugin_init_args* args,
                                               const hx_plugin_api** out_api) {
  return hxplugin::init_plugin<hxsim::SimPlugin>(args, hxsim::kPluginName, out_api, hxsim::build);
}
