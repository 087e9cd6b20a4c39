// What the CUDA benchmarks share: failures of raw CUDA and cuBLAS calls as exceptions (the
// benchmark turns them into SkipWithError), device and pinned host buffers that free
// themselves, and the wait for the device that every timed GPU iteration ends with.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>

namespace hxrt_bench {

// The GPU the CUDA benchmarks run on.
inline const std::string kGpu = "/GPU:0";

// Throws std::runtime_error "<call>: <error name>: <error text>" unless `error` is success.
void check_cuda(cudaError_t error, const char* call);
void check_cublas(cublasStatus_t status, const char* call);

// Waits for all work on the current device, from every stream of the process's context: the
// CUDA plugin's streams included, since the plugin and this program share the device's
// primary context. Both sides of each comparison end their iterations with it, so it costs
// them the same.
void synchronize_device();

class DeviceBuffer {
 public:
  explicit DeviceBuffer(size_t bytes);
  ~DeviceBuffer();
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  void* get() const { return data_; }

 private:
  void* data_ = nullptr;
};

// A non-blocking stream of this program's own, like the one the plugin gives each device.
class Stream {
 public:
  Stream();
  ~Stream();
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t get() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

// A cuBLAS handle bound to `stream`.
class CublasHandle {
 public:
  explicit CublasHandle(const Stream& stream);
  ~CublasHandle();
  CublasHandle(const CublasHandle&) = delete;
  CublasHandle& operator=(const CublasHandle&) = delete;
  cublasHandle_t get() const { return handle_; }

 private:
  cublasHandle_t handle_ = nullptr;
};

// Page-locked host memory, which copies reach at the full speed of the bus.
class PinnedBuffer {
 public:
  explicit PinnedBuffer(size_t bytes);
  ~PinnedBuffer();
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  void* get() const { return data_; }

 private:
  void* data_ = nullptr;
};

}  // namespace hxrt_bench
