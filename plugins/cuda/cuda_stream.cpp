#include "cuda_stream.hpp"

#include <utility>

#include "device.hpp"
#include "device_errors.hpp"
#include "errors.hpp"
#include "kernel_env.hpp"
#include "plugin_state.hpp"

namespace hxcuda {

CudaStream::~CudaStream() {
  const cudaStream_t stream = started();
  if (stream == nullptr) return;
  const char* call = "cudaSetDevice";
  cudaError_t error = cudaSetDevice(device_.cuda_ordinal());
  if (error == cudaSuccess && recording_ != nullptr) {
    // The core ends every recording it begins; a stream destroyed in the middle of one (an
    // error path) still must not leave CUDA a capture on a stream that is gone. An
    // invalidated capture gives no graph, and an error here is nothing anyone can act on.
    cudaGraph_t abandoned = nullptr;
    if (cudaStreamEndCapture(stream, &abandoned) == cudaSuccess && abandoned != nullptr) {
      (void)cudaGraphDestroy(abandoned);
    }
    (void)cudaGetLastError();
  }
  if (error == cudaSuccess) {
    call = "cudaStreamDestroy";
    error = cudaStreamDestroy(stream);
  }
  if (error == cudaSuccess) {
    call = "cudaEventDestroy";
    error = cudaEventDestroy(first_work_);
  }
  // At process exit the runtime may be gone before the core lets go of its streams; there is
  // nothing left to free then, and nothing worth a warning. A lost context was reported when
  // it was lost: one warning per stream would only bury that.
  if (error != cudaSuccess && error != cudaErrorCudartUnloading && !is_sticky(error)) {
    char text[512];
    describe_cuda_error(error, call, text, sizeof text);
    device_.plugin().log(HX_LOG_WARNING, "%s: destroying a stream: %s", device_.label().c_str(),
                         text);
  }
  (void)cudaGetLastError();
}

CudaRecording* CudaStream::recording() const {
  std::lock_guard<std::mutex> lock(recording_mutex_);
  return recording_.get();
}

bool CudaStream::start_recording(std::unique_ptr<CudaRecording>* recording) {
  std::lock_guard<std::mutex> lock(recording_mutex_);
  if (recording_ != nullptr) return false;
  recording_ = std::move(*recording);
  return true;
}

std::unique_ptr<CudaRecording> CudaStream::stop_recording() {
  std::lock_guard<std::mutex> lock(recording_mutex_);
  return std::move(recording_);
}

hx_status* CudaStream::mark_first_work(cudaStream_t stream) {
  if (hx_status* status = device_error(device_, cudaEventCreate(&first_work_), "cudaEventCreate")) {
    first_work_ = nullptr;
    return status;
  }
  if (hx_status* status =
          device_error(device_, cudaEventRecord(first_work_, stream), "cudaEventRecord")) {
    (void)cudaEventDestroy(first_work_);
    first_work_ = nullptr;
    return status;
  }
  return nullptr;
}

hx_status* CudaStream::for_work(cudaStream_t* out) {
  cudaStream_t stream = started();
  if (stream == nullptr) {
    std::lock_guard<std::mutex> lock(create_mutex_);
    stream = stream_.load(std::memory_order_relaxed);
    if (stream == nullptr) {
      // Non-blocking: see streams.hpp for why no plugin stream may synchronise with a default
      // stream.
      if (hx_status* status =
              device_error(device_, cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking),
                           "cudaStreamCreateWithFlags")) {
        return status;
      }
      if (hx_status* status = mark_first_work(stream)) {
        (void)cudaStreamDestroy(stream);
        return status;
      }
      stream_.store(stream, std::memory_order_release);
    }
  }
  *out = stream;
  return nullptr;
}

}  // namespace hxcuda
