// The CUDA plugin's entry point: checks the core's version and the options, finds the devices
// (without creating any CUDA context), registers the kernels and hands the core its table.
#include <hxrt/plugin_api.h>
#include <hxplugin/no_options.hpp>
#include <hxplugin/plugin_init.hpp>
#include <hxplugin/status.hpp>

#include <memory>

#include "copies.hpp"
#include "device.hpp"
#include "discovery.hpp"
#include "events.hpp"
#include "kernel_env.hpp"
#include "memory.hpp"
#include "plugin_state.hpp"
#include "streams.hpp"

namespace hxcuda {
namespace {

void shutdown(hx_plugin* plugin) { delete &from_handle(plugin); }

// The optional groups are all present: CUDA has streams, events and page-locked host memory.
// They hold only function pointers, so every instance of the plugin shares them.
constexpr hx_stream_api kStreams = {HX_STREAM_API_STRUCT_SIZE, nullptr,       stream_create,
                                    stream_destroy,            stream_synchronize, stream_query,
                                    stream_wait_event};
constexpr hx_event_api kEvents = {HX_EVENT_API_STRUCT_SIZE, nullptr,           event_create,
                                  event_destroy,            event_record,      event_synchronize,
                                  event_query};
constexpr hx_host_memory_api kHostMemory = {HX_HOST_MEMORY_API_STRUCT_SIZE, nullptr,
                                            host_allocate, host_deallocate};

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
}

void add_devices(CudaPlugin& state) {
  Discovery found = discover_devices();
  for (const std::string& line : found.skipped) state.log(HX_LOG_WARNING, "%s", line.c_str());
  for (DeviceFacts& facts : found.devices) {
    state.devices.push_back(std::make_unique<CudaDevice>(state, std::move(facts)));
  }
  state.unavailable = std::move(found.unavailable);
}

hx_status* init(const hx_plugin_init_args& args, const hx_plugin_api** out_api) {
  const hx_core_services& services = *args.services;
  if (hx_status* status = hxplugin::check_core_abi(args, kPluginName)) return status;
  const hxplugin::OptionsText options = hxplugin::options_text(args);
  if (hx_status* status =
          hxplugin::check_no_options(services, kPluginName, options.json, options.length)) {
    return status;
  }

  auto state = std::make_unique<CudaPlugin>();
  state->services = &services;
  state->core = args.core;
  add_devices(*state);
  fill_table(*state);
  // Registered whether or not there are devices, so that hxrt-info shows what the plugin
  // offers. On failure `state` is freed here: the core does not call shutdown after a
  // failed init.
  if (hx_status* status = register_kernels(services, args.core, *state)) return status;
  *out_api = &state.release()->api;
  return nullptr;
}

}  // namespace
}  // namespace hxcuda

extern "C" HX_EXPORT hx_status* hx_plugin_init(const hx_plugin_init_args* args,
                                               const hx_plugin_api** out_api) {
  return hxplugin::guarded(*args->services, hxcuda::kPluginName,
                           [&] { return hxcuda::init(*args, out_api); });
}
