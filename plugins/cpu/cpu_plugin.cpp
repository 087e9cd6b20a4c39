// The CPU plugin's entry point: checks the core's version and the options, settles OpenBLAS's
// core (kernel set) and threads, describes the host device, registers the kernels and hands the
// core its function table.
#include <cblas.h>
#include <hxrt/plugin_api.h>
#include <hxplugin/plugin_init.hpp>

#include <algorithm>
#include <cstdint>
#include <mutex>

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

// MatMul's threads: intra_op_threads when the core gives one. OpenBLAS keeps one count for the
// whole process, so every runtime in it (and the host program, if it calls OpenBLAS itself)
// shares it, and the last init that gives one wins. 0 leaves the count as it is: OpenBLAS's
// own choice (OPENBLAS_NUM_THREADS, else one per core) unless an earlier init changed it.
void set_blas_threads(uint32_t intra_op_threads) {
  if (intra_op_threads == 0) return;
  // OpenBLAS takes an int and caps it at the most threads it was built for.
  constexpr uint32_t kMostThreads = 1u << 16;
  // One call at a time, as runtimes may init at once: OpenBLAS's pthreads build (0.3.21)
  // compares the count with the size of its pool before it takes its own lock, so a call for
  // fewer threads that overlaps one for more can shrink the pool's recorded size below the
  // threads it has, and the next rise then starts a second thread in a live thread's slot
  // (seen: 11 pool threads, not 7, for a count of 8, in 1 of 100 processes whose two threads
  // set 8 and 4 at once, then one set 8).
  static std::mutex mutex;
  const std::lock_guard<std::mutex> lock(mutex);
  openblas_set_num_threads(static_cast<int>(std::min(intra_op_threads, kMostThreads)));
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
