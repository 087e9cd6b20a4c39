// The CPU plugin's entry point: checks the core's version and the options, settles OpenBLAS's
// core (kernel set) and threads, describes the host device, registers the kernels and hands the
// core its function table.
#include <hxrt/plugin_api.h>
#include <hxplugin/plugin_init.hpp>

#include <cstdint>

#include "blas/blas_threads.hpp"
#include "device.hpp"
#include "kernels/kernel_registry.hpp"
#include "memory.hpp"
#include "options.hpp"
#include "plugin_state.hpp"

namespace hxcpu {
namespace {

void shutdown(hx_plugin* plugin) { delete &from_handle(plugin); }

void fill_table(CpuPlugin& state) {
  hx_plugin_api& api = state.api;
  hxplugin::describe_plugin(api, kPluginName, "0.1.0", "CPU", to_handle(&state));
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
  // No streams, events or host_memory: every kernel and copy completes before it returns
  // (the ABI's meaning of absent streams), and the memory is host memory already, which the
  // core reads and writes directly (HX_MEMORY_HOST).
}

hx_status* build(CpuPlugin& state, hxplugin::OptionsText text, uint32_t intra_op_threads) {
  CpuOptions options;
  if (hx_status* status = parse_options(*state.services, text.json, text.length, &options)) {
    return status;
  }
  // Before the plugin's first BLAS call; the line says which kernels MatMul runs on.
  const BlasCoreReport core = apply_blas_core(options.blas_core);
  state.services->log(state.core, core.level, core.message.c_str());
  set_blas_threads(intra_op_threads);
  if (const auto warning = blas_threads_warning(intra_op_threads)) {
    state.services->log(state.core, HX_LOG_WARNING, warning->c_str());
  }
  state.intra_op_threads = intra_op_threads;
  state.device.services = state.services;
  probe_host(state.device);
  fill_table(state);
  return register_kernels(state);
}

}  // namespace
}  // namespace hxcpu

extern "C" HX_EXPORT hx_status* hx_plugin_init(const hx_plugin_init_args* args,
                                               const hx_plugin_api** out_api) {
  // Read inside build, after init_plugin has checked that the core's major lays args out as
  // this plugin knows.
  return hxplugin::init_plugin<hxcpu::CpuPlugin>(
      args, hxcpu::kPluginName, out_api,
      [args](hxcpu::CpuPlugin& state, hxplugin::OptionsText options) {
        return hxcpu::build(state, options, hxplugin::intra_op_threads(*args));
      });
}
