// The plugin's options, as given in the config under plugins.options.sim.
#pragma once

#include <hxrt/plugin_api.h>

#include "perf_model.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace hxsim {

// What may differ from one simulated device to the next. The plugin-level options memory_mb
// and the performance model's give every device its figures; a device's entry in the option
// "devices" overrides any of them but random_seed, which is plugin-wide.
struct DeviceOptions {
  // The device's memory budget.
  uint64_t memory_mb = 1024;
  // The performance model (perf_model.hpp), from the options matmul_gflops, elementwise_gbps,
  // launch_latency_us, {h2d,d2h,d2d}_gbps, {h2d,d2h,d2d}_latency_us, random_delay_us,
  // host_launch_us, host_replay_us, random_seed and op_models (an op's own figures).
  PerfOptions perf;
};

struct SimOptions {
  // The device type the simulated devices claim: "SIM", or "GPU" to stand in for a GPU.
  std::string device_type = "SIM";
  // One entry per device, in ordinal order: as many as the option device_count says, or as
  // the option "devices" lists. None by default, so that a default install never puts a fake
  // accelerator ahead of the CPU.
  std::vector<DeviceOptions> devices;
  // The ops whose kernels are registered; by default every op the plugin implements.
  std::vector<std::string> ops;
  // An hx_placement_class: by default a discrete accelerator, so that with device_type "GPU"
  // the simulated devices are placed on as GPUs are; "host_accelerator" ranks them after
  // discrete accelerators and before the CPU.
  int32_t placement_class = HX_PLACEMENT_DISCRETE_ACCELERATOR;
  // The largest single allocation, in bytes; 0 for none (the whole budget).
  uint64_t max_allocation = 0;
  // The alignment the devices declare and allocate refuses to exceed: a power of two, 1 to
  // 4096.
  uint64_t alignment = 256;
  // What the devices declare their kernels need (hx_device_properties.min_alignment); 0 for
  // the alignment. Any value the devices then declare, so that tests reach the core's check.
  uint64_t min_alignment = 0;
  // The most bytes one kernel reaches through one tensor view (hx_device_properties.
  // max_binding), which its kernels then refuse to exceed; 0 for none.
  uint64_t max_binding = 0;
  // true declares HX_WAIT_ON_HOST, as a Vulkan plugin across contexts would: wait_event then
  // refuses another device's event, so that a core that passes one is caught.
  bool host_waits = false;
  // false leaves memory_info out of the function table: the devices cannot tell free memory.
  bool report_memory = true;
  // A test aid: the ops whose kernels accept their arguments and return success, but whose
  // enqueued work then fails as it runs, as a GPU kernel that faults after its launch does
  // (with a NULL stream the failure is the compute call's status). Empty by default.
  std::vector<std::string> fault_ops;
  // false leaves the host_memory group (page-locked host memory) out of the function table,
  // so that the core's staging without it can be tested.
  bool pinned_memory = true;
  // false leaves the host_memory group's buffer functions out (ABI 2.5: allocate_buffer and
  // the copies that take its handles), so that the core's copies from pinned pointers can be
  // tested.
  bool pinned_buffers = true;
  // false leaves the recording group (recorded work) out, so that the core's runs without it
  // can be tested and measured against runs with it.
  bool recording = true;
};

// Most devices one plugin instance simulates: each is an object built at init, and the cap
// keeps a typo from exhausting host memory.
constexpr int32_t kMaxDeviceCount = 1024;

// Parses the options text (a JSON object; NULL or empty means "{}") into *out. Returns
// INVALID_ARGUMENT naming the option (a device's as "devices[2].matmul_gflops") for an unknown
// key, a value of the wrong type or range, a malformed device type, an op in "ops" or
// "fault_ops" the plugin does not implement, or a device_count that disagrees with the length
// of "devices".
hx_status* parse_options(const hx_core_services& services, const char* json, size_t length,
                         SimOptions* out);

}  // namespace hxsim
