// One CUDA device as the plugin hands it to the core: its fixed facts, how to make it current
// on a thread (which creates its CUDA context the first time), and its handles of the
// libraries (cuBLAS, cuBLASLt, cuDNN) and their workspaces.
#pragma once

#include <hxrt/plugin_api.h>

#include <cublasLt.h>
#include <cublas_v2.h>
#include <cudnn.h>

#include <cuda_runtime_api.h>

#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "discovery.hpp"
#include "library_workspace.hpp"

namespace hxcuda {

struct CudaPlugin;

class CudaDevice {
 public:
  CudaDevice(CudaPlugin& plugin, DeviceFacts facts);
  // Destroys the library handles that were made, and frees their workspaces.
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

  // What the libraries need for work on `stream`, and the lock that guards it all (see the
  // leases of kernel_env.hpp). One cuBLAS handle and one workspace per stream, because a
  // workspace is used by every library call enqueued with it: two streams sharing one could
  // run two calls on the same workspace at once. On one stream the calls run in order, so its
  // GEMMs, matmuls and convolutions share its workspace.
  struct StreamLibraries {
    cublasHandle_t cublas = nullptr;              // made at the stream's first GEMM
    std::unique_ptr<LibraryWorkspace> workspace;  // made at its first library call not recorded
  };
  std::mutex& library_mutex() { return library_mutex_; }
  StreamLibraries& stream_libraries(cudaStream_t stream) { return stream_libraries_[stream]; }
  // The cuDNN and cuBLASLt handles, one each for the device, made at their first use and
  // guarded by library_mutex(): a cuDNN handle is bound to a stream per call (cudnnSetStream),
  // and a cuBLASLt call names its stream itself.
  cudnnHandle_t& cudnn_handle() { return cudnn_handle_; }
  cublasLtHandle_t& cublaslt_handle() { return cublaslt_handle_; }

 private:
  CudaPlugin& plugin_;
  const DeviceFacts facts_;
  const std::string label_;
  std::mutex library_mutex_;
  // Filled at the first library call on each stream, under library_mutex_.
  std::unordered_map<cudaStream_t, StreamLibraries> stream_libraries_;
  cudnnHandle_t cudnn_handle_ = nullptr;
  cublasLtHandle_t cublaslt_handle_ = nullptr;
};

inline hx_device* to_handle(CudaDevice* device) { return reinterpret_cast<hx_device*>(device); }
inline CudaDevice& from_handle(hx_device* device) { return *reinterpret_cast<CudaDevice*>(device); }

// Function-table entries.
hx_status* device_count(hx_plugin* plugin, int32_t* out_count);
hx_status* device_get(hx_plugin* plugin, int32_t ordinal, hx_device** out_device);
hx_status* device_properties(hx_device* device, hx_device_properties* props);

}  // namespace hxcuda
