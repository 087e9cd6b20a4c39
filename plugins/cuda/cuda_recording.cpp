#include "cuda_recording.hpp"

#include "device.hpp"
#include "errors.hpp"
#include "plugin_state.hpp"

namespace hxcuda {

CudaRecording::~CudaRecording() {
  if (graph_ == nullptr) return;  // the workspace frees itself
  const char* call = "cudaSetDevice";
  cudaError_t error = cudaSetDevice(device_.cuda_ordinal());
  if (error == cudaSuccess) {
    call = "cudaGraphExecDestroy";
    error = cudaGraphExecDestroy(graph_);
  }
  // As for a stream (cuda_stream.cpp): nothing to say at process exit or on a lost context.
  if (error != cudaSuccess && error != cudaErrorCudartUnloading && !is_sticky(error)) {
    char text[512];
    describe_cuda_error(error, call, text, sizeof text);
    device_.plugin().log(HX_LOG_WARNING, "%s: destroying a recording: %s",
                         device_.label().c_str(), text);
  }
  (void)cudaGetLastError();
}

hx_status* CudaRecording::library_workspace(const LibraryWorkspace** out) {
  if (library_workspace_ == nullptr) {
    if (hx_status* status = LibraryWorkspace::allocate(device_, &library_workspace_)) return status;
  }
  *out = library_workspace_.get();
  return nullptr;
}

}  // namespace hxcuda
