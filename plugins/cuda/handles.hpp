// The streams, events and recordings one plugin instance has handed out. Every handle the core
// passes back is looked up here, so a handle that was never created, was already destroyed, or
// belongs to another device is an INVALID_ARGUMENT rather than a wild pointer.
#pragma once

#include <hxrt/plugin_api.h>

#include <memory>
#include <mutex>
#include <unordered_map>

#include "cuda_event.hpp"
#include "cuda_recording.hpp"
#include "cuda_stream.hpp"

namespace hxcuda {

class CudaDevice;

class Handles {
 public:
  // Throws std::bad_alloc.
  hx_stream* add_stream(CudaDevice& device);
  // The live stream behind `handle`; nullptr when it is not one.
  CudaStream* find_stream(const hx_stream* handle) const;
  // Destroys the stream; false when `handle` is not a live stream of `device`.
  bool remove_stream(const CudaDevice& device, const hx_stream* handle);

  // Throws std::bad_alloc.
  hx_event* add_event(CudaDevice& device);
  // The live event behind `handle`; nullptr when it is not one.
  CudaEvent* find_event(const hx_event* handle) const;
  // Destroys the event; false when `handle` is not a live event of `device`.
  bool remove_event(const CudaDevice& device, const hx_event* handle);

  // Takes `recording` (which end made) and gives its handle. Throws std::bad_alloc, the
  // recording then freed.
  hx_recording* add_recording(std::unique_ptr<CudaRecording> recording);
  // The live recording behind `handle`; nullptr when it is not one.
  CudaRecording* find_recording(const hx_recording* handle) const;
  // Destroys the recording; false when `handle` is not a live recording of `device`.
  bool remove_recording(const CudaDevice& device, const hx_recording* handle);

 private:
  mutable std::mutex mutex_;
  std::unordered_map<const void*, std::unique_ptr<CudaStream>> streams_;
  std::unordered_map<const void*, std::unique_ptr<CudaEvent>> events_;
  std::unordered_map<const void*, std::unique_ptr<CudaRecording>> recordings_;
};

}  // namespace hxcuda
