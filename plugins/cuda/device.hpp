// One CUDA device as the plugin hands it to the core: its fixed facts, how to make it current
// on a thread (which creates its CUDA context the first time), and its cuBLAS handles and
// workspaces.
#pragma once

#include <hxrt/plugin_api.h>

#include <cublas_v2.h>

#include <cuda_runtime_api.h>

#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "cublas_workspace.hpp"
#include "discovery.hpp"

namespace hxcuda {

struct CudaPlugin;

class CudaDevice {
 public:
  CudaDevice(CudaPlugin& plugin, DeviceFacts facts);
  // Destroys the cuBLAS handles that were made, and frees their workspaces.
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

  // What cuBLAS needs for work on `stream`, and the lock that guards the table (see
  // CublasLease). One handle and one workspace per stream, because a workspace is used by
  // every GEMM enqueued with it: two streams sharing one could run two GEMMs on the same
  // workspace at once.
  struct CublasStream {
    cublasHandle_t handle = nullptr;             // made at the stream's first GEMM
    std::unique_ptr<CublasWorkspace> workspace;  // made at its first GEMM not recorded
  };
  std::mutex& cublas_mutex() { return cublas_mutex_; }
  CublasStream& cublas_stream(cudaStream_t stream) { return cublas_streams_[stream]; }

 private:
  CudaPlugin& plugin_;
  const DeviceFacts facts_;
  const std::string label_;
  std::mutex cublas_mutex_;
  // Filled at the first GEMM on each stream, under cublas_mutex_.
  std::unordered_map<cudaStream_t, CublasStream> cublas_streams_;
};

inline hx_device* to_handle(CudaDevice* device) { return reinterpret_cast<hx_device*>(device); }
inline CudaDevice& from_handle(hx_device* device) { return *reinterpret_cast<CudaDevice*>(device); }

// Function-table entries.
hx_status* device_count(hx_plugin* plugin, int32_t* out_count);
hx_status* device_get(hx_plugin* plugin, int32_t ordinal, hx_device** out_device);
hx_status* device_properties(hx_device* device, hx_device_properties* props);

}  // namespace hxcuda
