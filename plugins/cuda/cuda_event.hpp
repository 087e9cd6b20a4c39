// One event of one device. Its CUDA event (timing disabled: events here order work, they do
// not time it) is made at the first record that has work to mark; recording a stream that
// never had work, or the NULL stream whose work is always complete, marks a point that is
// already reached and needs no CUDA call.
#pragma once

#include <cuda_runtime_api.h>

#include <mutex>

#include <hxrt/plugin_api.h>

namespace hxcuda {

class CudaDevice;

class CudaEvent {
 public:
  explicit CudaEvent(CudaDevice& device) : device_(device) {}
  // Destroys the CUDA event, if one was made.
  ~CudaEvent();
  CudaEvent(const CudaEvent&) = delete;
  CudaEvent& operator=(const CudaEvent&) = delete;

  CudaDevice& device() const { return device_; }
  // Marks the point after the work enqueued so far on `stream`, a CUDA stream of this
  // device. The device must be current.
  hx_status* record(cudaStream_t stream);
  // Marks a point that is already reached.
  void mark_reached();
  // The CUDA event of the last recorded point, or nullptr when that point needs no waiting
  // (never recorded, or marked reached).
  cudaEvent_t pending() const;

 private:
  CudaDevice& device_;
  mutable std::mutex mutex_;
  cudaEvent_t event_ = nullptr;
  bool pending_ = false;
};

}  // namespace hxcuda
