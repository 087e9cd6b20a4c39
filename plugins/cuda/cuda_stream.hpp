// One stream of one device. Its CUDA stream is made when the first work is enqueued on it:
// the core creates a stream for every device when the runtime starts, and a CUDA stream needs
// the device's CUDA context, which a process that never runs GPU work should not pay for.
// A timing event is recorded on it as it is made, before that first work: the time an event
// recorded while the stream had no work stands for (events.elapsed_ns).
#pragma once

#include <cuda_runtime_api.h>

#include <atomic>
#include <mutex>

#include <hxrt/plugin_api.h>

namespace hxcuda {

class CudaDevice;

class CudaStream {
 public:
  explicit CudaStream(CudaDevice& device) : device_(device) {}
  // Destroys the CUDA stream, if one was made; work still queued on it completes first.
  ~CudaStream();
  CudaStream(const CudaStream&) = delete;
  CudaStream& operator=(const CudaStream&) = delete;

  CudaDevice& device() const { return device_; }
  // The CUDA stream to enqueue work on, made now (non-blocking: it does not wait for the
  // legacy default stream) if this is its first work. The device must be current.
  hx_status* for_work(cudaStream_t* out);
  // The CUDA stream if work was ever enqueued; nullptr when nothing was, so there is nothing
  // to wait for.
  cudaStream_t started() const { return stream_.load(std::memory_order_acquire); }
  // The CUDA event recorded on the stream before its first work; nullptr until started.
  cudaEvent_t first_work() const { return started() != nullptr ? first_work_ : nullptr; }

 private:
  CudaDevice& device_;
  std::mutex create_mutex_;
  std::atomic<cudaStream_t> stream_{nullptr};
  cudaEvent_t first_work_ = nullptr;  // written before stream_ is published

  // Creates first_work_ and records it on `stream`, which has no work yet.
  hx_status* mark_first_work(cudaStream_t stream);
};

}  // namespace hxcuda
