// One stream of one device. Its CUDA stream is made when the first work is enqueued on it:
// the core creates a stream for every device when the runtime starts, and a CUDA stream needs
// the device's CUDA context, which a process that never runs GPU work should not pay for.
// A timing event is recorded on it as it is made, before that first work: the time an event
// recorded while the stream had no work stands for (events.elapsed_ns). Between a recording's
// begin and end the stream records (recordings.hpp): it holds the recording it is building.
#pragma once

#include <cuda_runtime_api.h>

#include <atomic>
#include <memory>
#include <mutex>

#include <hxrt/plugin_api.h>

#include "cuda_recording.hpp"

namespace hxcuda {

class CudaDevice;

class CudaStream {
 public:
  explicit CudaStream(CudaDevice& device) : device_(device) {}
  // Destroys the CUDA stream, if one was made, ending (and dropping) a capture left running;
  // work still queued on it completes first.
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

  // The recording the stream is building; nullptr when it does not record.
  CudaRecording* recording() const;
  // Puts the stream in recording mode with `recording` (taken); false, leaving `recording`
  // with the caller, when it records already.
  bool start_recording(std::unique_ptr<CudaRecording>* recording);
  // Takes the stream out of recording mode: the recording it was building, or nullptr when it
  // was not recording.
  std::unique_ptr<CudaRecording> stop_recording();

 private:
  CudaDevice& device_;
  std::mutex create_mutex_;
  std::atomic<cudaStream_t> stream_{nullptr};
  cudaEvent_t first_work_ = nullptr;  // written before stream_ is published
  // A lock, though the core makes no two calls on a recording stream at once: they may come
  // from different threads, and kernel_env reads this at every kernel call.
  mutable std::mutex recording_mutex_;
  std::unique_ptr<CudaRecording> recording_;

  // Creates first_work_ and records it on `stream`, which has no work yet.
  hx_status* mark_first_work(cudaStream_t stream);
};

}  // namespace hxcuda
