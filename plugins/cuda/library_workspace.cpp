#include "library_workspace.hpp"

#include <cuda_runtime_api.h>

#include <utility>

#include "capture_mode.hpp"
#include "device.hpp"
#include "device_errors.hpp"
#include "errors.hpp"
#include "kernel_env.hpp"
#include "plugin_state.hpp"

namespace hxcuda {

size_t library_workspace_bytes(int compute_major) {
  constexpr size_t kMiB = size_t{1} << 20;
  return compute_major >= 9 ? 32 * kMiB : kLeastWorkspaceBytes;
}

hx_status* LibraryWorkspace::allocate(const CudaDevice& device,
                                     std::unique_ptr<LibraryWorkspace>* out) {
  // Not make_unique: the constructor is private. Made before the memory, so that a throw
  // leaks nothing.
  std::unique_ptr<LibraryWorkspace> workspace(
      new LibraryWorkspace(device, library_workspace_bytes(device.facts().compute_major)));
  cudaError_t error = cudaSuccess;
  {
    const RelaxedCaptureMode relaxed;
    error = cudaMalloc(&workspace->data_, workspace->size_);
  }
  if (hx_status* status = device_error(device, error, "cudaMalloc (a library workspace)")) {
    workspace->data_ = nullptr;
    return status;
  }
  *out = std::move(workspace);
  return nullptr;
}

LibraryWorkspace::~LibraryWorkspace() {
  if (data_ == nullptr) return;
  const char* call = "cudaSetDevice";
  cudaError_t error = cudaSetDevice(device_.cuda_ordinal());
  if (error == cudaSuccess) {
    call = "cudaFree";
    error = cudaFree(data_);
  }
  // As for a stream (cuda_stream.cpp): nothing to say at process exit or on a lost context.
  if (error != cudaSuccess && error != cudaErrorCudartUnloading && !is_sticky(error)) {
    char text[512];
    describe_cuda_error(error, call, text, sizeof text);
    device_.plugin().log(HX_LOG_WARNING, "%s: freeing a library workspace: %s",
                         device_.label().c_str(), text);
  }
  (void)cudaGetLastError();
}

}  // namespace hxcuda
