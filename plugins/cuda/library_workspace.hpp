// The device memory the libraries compute in (a cuBLAS GEMM, a cuBLASLt matmul, a cuDNN
// convolution's algorithm, the f32 statistics of a cuDNN batch normalization), owned by the
// plugin rather than by the libraries. Left to itself, cuBLAS takes a GEMM's workspace from its
// own pool, and cublasSetStream (which the plugin calls at every GEMM, see CublasLease) puts a
// handle back on that pool, so a GEMM may allocate as it is enqueued: host time at every call,
// and, inside a recording, an allocation that is captured or that invalidates the capture. A
// workspace given with cublasSetWorkspace after each cublasSetStream is allocated once and
// reused, as PyTorch does (aten/src/ATen/cuda/CublasHandlePool.cpp); cuBLASLt and cuDNN take
// theirs with each call. One stream's calls run in order, so they all share its workspace.
#pragma once

#include <hxrt/plugin_api.h>

#include <cstddef>
#include <memory>

namespace hxcuda {

class CudaDevice;

class LibraryWorkspace {
 public:
  // Allocates the workspace for `device`, which must be current, with the thread's capture
  // mode relaxed (capture_mode.hpp), so that it may be made while a stream records.
  // OUT_OF_MEMORY or INTERNAL naming the device when cudaMalloc fails.
  static hx_status* allocate(const CudaDevice& device, std::unique_ptr<LibraryWorkspace>* out);
  // Frees the memory (cudaFree, which waits for the device's work: a workspace is freed only
  // when no library call that uses it is queued).
  ~LibraryWorkspace();
  LibraryWorkspace(const LibraryWorkspace&) = delete;
  LibraryWorkspace& operator=(const LibraryWorkspace&) = delete;

  void* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  LibraryWorkspace(const CudaDevice& device, size_t size) : device_(device), size_(size) {}

  const CudaDevice& device_;
  void* data_ = nullptr;
  size_t size_;
};

// The workspace size for a device of compute capability `compute_major`.x: PyTorch's cuBLAS
// defaults, 32 MiB from Hopper on (whose GEMM kernels gain from a large one) and 4 MiB before
// it (kLeastWorkspaceBytes, kernel_env.hpp). A convolution takes the fastest of cuDNN's
// algorithms that fit in it.
size_t library_workspace_bytes(int compute_major);

}  // namespace hxcuda
