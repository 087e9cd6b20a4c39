// The one CPU device: the host machine, described from what the OS reports.
#pragma once

#include <hxrt/plugin_api.h>

#include <cstdint>
#include <string>

namespace hxcpu {

// The alignment the CPU device allocates at: a cache line, which also suits every SIMD load the
// kernels' loops compile to (AVX-512 included). Its kernels need none (min_alignment 1).
constexpr uint64_t kCpuAlignment = 64;

struct CpuDevice {
  const hx_core_services* services = nullptr;
  std::string product;  // /proc/cpuinfo "model name"; empty when the kernel does not say
  std::string vendor;   // /proc/cpuinfo "vendor_id"; empty when the kernel does not say
  std::string arch;     // uname machine, e.g. "x86_64"
  uint64_t memory_total = 0;  // bytes of physical RAM
  int32_t numa_node = -1;     // 0 on a NUMA-aware kernel; the device spans the whole machine
  int32_t compute_units = 0;  // online cores
};

// Fills `device` from the running machine. Called once, at init.
void probe_host(CpuDevice& device);

inline hx_device* to_handle(CpuDevice* device) { return reinterpret_cast<hx_device*>(device); }
inline CpuDevice& from_handle(hx_device* device) { return *reinterpret_cast<CpuDevice*>(device); }

// Function-table entries.
hx_status* device_count(hx_plugin* plugin, int32_t* out_count);
hx_status* device_get(hx_plugin* plugin, int32_t ordinal, hx_device** out_device);
hx_status* device_properties(hx_device* device, hx_device_properties* props);

}  // namespace hxcpu
