// The CUDA plugin's entry point: checks the core's version and the options, finds the devices
// (without creating any CUDA context), registers the kernels and hands the core its table.
#include <hxrt/plugin_api.h>
#include <hxplugin/plugin_init.hpp>

#include <memory>

#include "copies.hpp"
#include "device.hpp"
#include "discovery.hpp"
#include "events.hpp"
#include "kernel_env.hpp"
#include "memory.hpp"
#include "options.hpp"
#include "plugin_state.hpp"
#include "recordings.hpp"
#include "streams.hpp"

namespace hxcuda {
namespace {

void shutdown(hx_plugin* plugin) { delete &from_handle(plugin); }

// The optional groups are all present: CUDA has streams, events, page-locked host memory, and
// stream capture for recorded work.
// They hold only function pointers, so every instance of the plugin shares them.
constexpr hx_stream_api kStreams = {HX_STREAM_API_STRUCT_SIZE, nullptr,       stream_create,
                                    stream_destroy,            stream_synchronize, stream_query,
                                    stream_wait_event};
constexpr hx_event_api kEvents = {HX_EVENT_API_STRUCT_SIZE, nullptr,           event_create,
                                  event_destroy,            event_record,      event_synchronize,
                                  event_query,              event_elapsed_ns};
// No buffer functions: cudaMemcpyAsync takes page-locked memory by its address.
constexpr hx_host_memory_api kHostMemory = {HX_HOST_MEMORY_API_STRUCT_SIZE,
                                            nullptr,
                                            host_allocate,
                                            host_deallocate,
                                            nullptr,
                                            nullptr,
                                            nullptr};
constexpr hx_recording_api kRecording = {HX_RECORDING_API_STRUCT_SIZE, nullptr, recording_begin,
                                         recording_end, recording_replay, recording_destroy};

void fill_table(CudaPlugin& state) {
  hx_plugin_api& api = state.api;
  hxplugin::describe_plugin(api, kPluginName, "0.1.0", "GPU", to_handle(&state));
  api.shutdown = shutdown;
  api.device_count = device_count;
  api.device_get = device_get;
  api.device_properties = device_properties;
  api.memory_info = memory_info;
  api.allocate = allocate;
  api.deallocate = deallocate;
  api.memset = memset_bytes;
  api.copy_host_to_device = copy_host_to_device;
  api.copy_device_to_host = copy_device_to_host;
  api.copy_device_to_device = copy_device_to_device;
  api.streams = &kStreams;
  api.events = &kEvents;
  api.host_memory = &kHostMemory;
  api.recording = &kRecording;
}

void add_devices(CudaPlugin& state) {
  Discovery found = discover_devices();
  for (const std::string& line : found.skipped) state.log(HX_LOG_WARNING, "%s", line.c_str());
  for (DeviceFacts& facts : found.devices) {
    state.devices.push_back(std::make_unique<CudaDevice>(state, std::move(facts)));
  }
  state.unavailable = std::move(found.unavailable);
}

hx_status* build(CudaPlugin& state, hxplugin::OptionsText options) {
  if (hx_status* status =
          parse_options(*state.services, options.json, options.length, &state.options)) {
    return status;
  }
  add_devices(state);
  fill_table(state);
  // Registered whether or not there are devices, so that hxrt-info shows what the plugin
  // offers.
  return register_kernels(*state.services, state.core, state);
}

}  // namespace
}  // namespace hxcuda

extern "C" HX_EXPORT hx_status* hx_plugin_init(const hx_plugin_init_args* args,
                                               const hx_plugin_api** out_api) {
  return hxplugin::init_plugin<hxcuda::CudaPlugin>(args, hxcuda::kPluginName, out_api,
                                                   hxcuda::build);
}
