// Finding the CUDA devices at init: how many the runtime sees (CUDA_VISIBLE_DEVICES applied by
// the runtime itself) and what each is, or why there are none. Only queries that need no CUDA
// context are made here, so loading the plugin creates none.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <vector>

namespace hxcuda {

// What the plugin reports about one device; fixed for the life of the process.
struct DeviceFacts {
  int cuda_ordinal = 0;       // the runtime's device number, for cudaSetDevice
  std::string product;        // "NVIDIA H100 80GB HBM3"
  std::string arch;           // compute capability as "sm_90"
  int compute_major = 0;      // the compute capability's major number (9 for sm_90)
  std::string bus_id;         // PCI bus id, lower case: "0000:3b:00.0"
  uint64_t memory_total = 0;  // bytes of device memory
  int32_t compute_units = 0;  // streaming multiprocessors
  int32_t numa_node = -1;     // the host NUMA node nearest the device; -1 when unknown
};

struct Discovery {
  std::vector<DeviceFacts> devices;
  // Why `devices` is empty ("no CUDA driver: ...", "no CUDA device: ..."); empty otherwise.
  std::string unavailable;
  // Devices that were seen but could not be described, one line each, for the log.
  std::vector<std::string> skipped;
};

Discovery discover_devices();

// The reason given when cudaGetDeviceCount fails with `error`; `driver_version` is what
// cudaDriverGetVersion reported (0 when no driver is installed).
std::string unavailable_reason(cudaError_t error, int driver_version);

}  // namespace hxcuda
