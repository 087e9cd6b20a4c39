// One CUDA device as the plugin hands it to the core: its fixed facts, how to make it current
// on a thread (which creates its CUDA context the first time), and its cuBLAS handles.
#pragma once

#include <hxrt/plugin_api.h>

#include <cublas_v2.h>

#include <cuda_runtime_api.h>

#include <mutex>
#include <string>
#include <unordered_map>

#include "discovery.hpp"

namespace hxcuda {

struct CudaPlugin;

class CudaDevice {
 public:
  CudaDevice(CudaPlugin& plugin, DeviceFacts facts);
  // Destroys the cuBLAS handles that were made.
  ~CudaDevice();
  CudaDevice(const CudaDevice&) = delete;
  CudaDevice& operator=(const CudaDevice&) = delete;

  CudaPlugin& plugin() const { return plugin_; }
  const hx_core_services& services() const;
  const DeviceFacts& facts() const { return facts_; }
  int cuda_ordinal() const { return facts_.cuda_ordinal; }
  // "CUDA device 0 (NVIDIA H100 80GB HBM3)", for messages.
  const std::string& label() const { return label_; }

  // Makes this device the calling thread's current device. The first call in the process
  // creates the device's primary CUDA context (hundreds of MB of device memory and up to a
  // second), which is why nothing calls it before the device has work to do. Fails once the
  // device's context is lost (device_errors.hpp).
  hx_status* make_current() const;

  // The cuBLAS handle for work on `stream` (null until made), and the lock that guards the
  // table (see CublasLease). One handle per stream, because a handle's default workspace
  // is used by every GEMM enqueued through it: two streams sharing one could run two GEMMs
  // on the same workspace at once.
  std::mutex& cublas_mutex() { return cublas_mutex_; }
  cublasHandle_t& cublas_handle(cudaStream_t stream) { return cublas_handles_[stream]; }

 private:
  CudaPlugin& plugin_;
  const DeviceFacts facts_;
  const std::string label_;
  std::mutex cublas_mutex_;
  // Made at the first GEMM on each stream, under cublas_mutex_.
  std::unordered_map<cudaStream_t, cublasHandle_t> cublas_handles_;
};

inline hx_device* to_handle(CudaDevice* device) { return reinterpret_cast<hx_device*>(device); }
inline CudaDevice& from_handle(hx_device* device) { return *reinterpret_cast<CudaDevice*>(device); }

// Function-table entries.
hx_status* device_count(hx_plugin* plugin, int32_t* out_count);
hx_status* device_get(hx_plugin* plugin, int32_t ordinal, hx_device** out_device);
hx_status* device_properties(hx_device* device, hx_device_properties* props);

}  // namespace hxcuda
