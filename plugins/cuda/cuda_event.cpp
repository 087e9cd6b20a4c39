#include "cuda_event.hpp"

#include "device.hpp"
#include "device_errors.hpp"
#include "errors.hpp"
#include "kernel_env.hpp"
#include "plugin_state.hpp"

namespace hxcuda {

CudaEvent::~CudaEvent() {
  if (event_ == nullptr) return;
  const char* call = "cudaSetDevice";
  cudaError_t error = cudaSetDevice(device_.cuda_ordinal());
  if (error == cudaSuccess) {
    call = "cudaEventDestroy";
    error = cudaEventDestroy(event_);
  }
  // See ~CudaStream: at process exit the runtime may already be gone, and a lost context was
  // reported when it was lost.
  if (error != cudaSuccess && error != cudaErrorCudartUnloading && !is_sticky(error)) {
    char text[512];
    describe_cuda_error(error, call, text, sizeof text);
    device_.plugin().log(HX_LOG_WARNING, "%s: destroying an event: %s", device_.label().c_str(),
                         text);
  }
  (void)cudaGetLastError();
}

hx_status* CudaEvent::record(cudaStream_t stream, const hx_stream* on) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (event_ == nullptr) {
    // With timing (see the header).
    if (hx_status* status = device_error(
            device_, cudaEventCreateWithFlags(&event_, cudaEventDefault), "cudaEventCreateWithFlags")) {
      event_ = nullptr;
      return status;
    }
  }
  if (hx_status* status = device_error(device_, cudaEventRecord(event_, stream), "cudaEventRecord")) {
    return status;
  }
  pending_ = true;
  stream_ = on;
  return nullptr;
}

void CudaEvent::mark_reached(const hx_stream* on) {
  std::lock_guard<std::mutex> lock(mutex_);
  pending_ = false;
  stream_ = on;
}

CudaEvent::Point CudaEvent::point() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return Point{stream_, pending_ ? event_ : nullptr};
}

cudaEvent_t CudaEvent::pending() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return pending_ ? event_ : nullptr;
}

}  // namespace hxcuda
