// One event of one device. Its CUDA event is made at the first record that has work to mark;
// recording a stream that never had work, or the NULL stream whose work is always complete,
// marks a point that is already reached and needs no CUDA call. CUDA events are made with
// timing: the ABI's events.create cannot say which events will be timed (events.elapsed_ns),
// and the core times work with the same events that order it, so any event may be either end
// of a timed interval. cudaEventDisableTiming would make waits and queries on them a little
// cheaper, and cudaEventElapsedTime refuse them.
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
  // Marks the point after the work enqueued so far on `stream`, the CUDA stream of the
  // plugin's stream `on`. The device must be current.
  hx_status* record(cudaStream_t stream, const hx_stream* on);
  // Marks a point that is already reached: recorded on `on`, a stream that never had work,
  // or on the NULL stream (`on` NULL).
  void mark_reached(const hx_stream* on);
  // The CUDA event of the last recorded point, or nullptr when that point needs no waiting
  // (never recorded, or marked reached).
  cudaEvent_t pending() const;

  // The last recorded point, for timing.
  struct Point {
    // The plugin's stream it was recorded on; NULL when it never was recorded on a stream
    // (never recorded, or recorded on the NULL stream).
    const hx_stream* stream = nullptr;
    // Its CUDA event; nullptr when the stream had no work yet, which makes the point the
    // start of the stream's first work (CudaStream::first_work).
    cudaEvent_t event = nullptr;
  };
  Point point() const;

 private:
  CudaDevice& device_;
  mutable std::mutex mutex_;
  cudaEvent_t event_ = nullptr;
  bool pending_ = false;
  const hx_stream* stream_ = nullptr;  // see Point
};

}  // namespace hxcuda
