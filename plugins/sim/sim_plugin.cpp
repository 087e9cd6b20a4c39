// The sim plugin's entry point: reads the options, builds the simulated devices, registers the
// kernels the options name and hands the core its function table.
#include <hxrt/plugin_api.h>

#include <memory>

#include "copies.hpp"
#include "device.hpp"
#include "kernels/kernel_registry.hpp"
#include "memory.hpp"
#include "options.hpp"
#include "plugin_state.hpp"
#include "status.hpp"
#include "streams.hpp"

namespace hxsim {
namespace {

void shutdown(hx_plugin* plugin) { delete &from_handle(plugin); }

void fill_table(SimPlugin& state) {
  hx_plugin_api& api = state.api;
  api.struct_size = HX_PLUGIN_API_STRUCT_SIZE;
  api.abi_major = HX_ABI_VERSION_MAJOR;
  api.abi_minor = HX_ABI_VERSION_MINOR;
  api.name = "sim";
  api.version = "0.1.0";
  api.device_type = state.options.device_type.c_str();
  api.plugin = to_handle(&state);
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
  api.stream_create = stream_create;
  api.stream_destroy = stream_destroy;
  api.stream_synchronize = stream_synchronize;
  api.stream_query = stream_query;
  api.stream_wait_event = stream_wait_event;
  api.event_create = event_create;
  api.event_destroy = event_destroy;
  api.event_record = event_record;
  api.event_synchronize = event_synchronize;
  api.event_query = event_query;
  // No host_allocate: the simulated devices copy from any host memory at the same speed.
}

hx_status* init(const hx_plugin_init_args& args, const hx_plugin_api** out_api) {
  const hx_core_services& services = *args.services;
  if (args.core_abi_major != HX_ABI_VERSION_MAJOR) {
    return make_status(services, HX_FAILED_PRECONDITION,
                       "plugin 'sim' speaks ABI %d.%d, core speaks %u.%u", HX_ABI_VERSION_MAJOR,
                       HX_ABI_VERSION_MINOR, args.core_abi_major, args.core_abi_minor);
  }
  auto state = std::make_unique<SimPlugin>();
  state->services = &services;
  state->core = args.core;
  const bool has_options =
      args.struct_size >= HX_STRUCT_SIZE(hx_plugin_init_args, options_json_length);
  if (hx_status* status =
          parse_options(services, has_options ? args.options_json : nullptr,
                        has_options ? args.options_json_length : 0, &state->options)) {
    return status;
  }
  const uint64_t memory_bytes = state->options.memory_mb << 20;
  for (int32_t ordinal = 0; ordinal < state->options.device_count; ++ordinal) {
    state->devices.push_back(std::make_unique<SimDevice>(*state, ordinal, memory_bytes));
  }
  fill_table(*state);
  // On failure `state` is freed here: the core does not call shutdown after a failed init.
  if (hx_status* status = register_kernels(*state)) return status;
  *out_api = &state.release()->api;
  return nullptr;
}

}  // namespace
}  // namespace hxsim

extern "C" HX_EXPORT hx_status* hx_plugin_init(const hx_plugin_init_args* args,
                                               const hx_plugin_api** out_api) {
  return hxsim::guarded(*args->services, [&] { return hxsim::init(*args, out_api); });
}
