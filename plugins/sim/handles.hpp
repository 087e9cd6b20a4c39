// The streams and events one plugin instance has handed out. A stream is a worker that runs its
// work in order off the caller's thread (work_queue.hpp); an event is the point of a stream it
// was last recorded at. Every handle the core passes back is looked up here, so a handle that
// was never created (or already destroyed, or belongs to another device) is an
// INVALID_ARGUMENT rather than a wild pointer; lookups hand out shared ownership, so a stream
// destroyed while another thread enqueues on it lives until that call returns.
#pragma once

#include <hxrt/plugin_api.h>

#include <memory>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

#include "stream_recorder.hpp"
#include "work_queue.hpp"

namespace hxsim {

struct SimDevice;

struct SimStream {
  explicit SimStream(const SimDevice& owner) : device(&owner) {}
  // Runs the queued work, then logs a warning for each failure of its work that no stream
  // synchronize took: the core can no longer ask for it, and an error must not go unseen.
  ~SimStream();
  SimStream(const SimStream&) = delete;
  SimStream& operator=(const SimStream&) = delete;

  const SimDevice* device;
  StreamRecorder recorder;  // before the worker: its items may pin buffers the worker frees
  StreamWorker worker;
};

// Work recorded on a stream of `device` (plugin_api.h, "Recorded work"): the items, in order,
// each with its modelled duration and the pins of the buffers it names.
struct SimRecording {
  SimRecording(const SimDevice& owner, std::vector<WorkItem> recorded)
      : device(&owner), items(std::move(recorded)) {}
  const SimDevice* device;
  const std::vector<WorkItem> items;
};

struct SimEvent {
  explicit SimEvent(const SimDevice& owner) : device(&owner) {}
  const SimDevice* device;

  void record(Point at) {
    std::lock_guard<std::mutex> lock(mutex);
    point = std::move(at);
  }
  Point recorded() const {
    std::lock_guard<std::mutex> lock(mutex);
    return point;
  }

 private:
  mutable std::mutex mutex;
  Point point;  // complete until first recorded
};

class Handles {
 public:
  hx_stream* add_stream(const SimDevice& device);
  // The device of a live stream; nullptr when `stream` is not one.
  const SimDevice* stream_device(const hx_stream* stream) const;
  // The live stream `stream`, or nullptr.
  std::shared_ptr<SimStream> find_stream(const hx_stream* stream) const;
  // False when `stream` is not a live stream of `device`.
  bool remove_stream(const SimDevice& device, const hx_stream* stream);

  hx_event* add_event(const SimDevice& device);
  // The device of a live event; nullptr when `event` is not one.
  const SimDevice* event_device(const hx_event* event) const;
  // The live event `event`, or nullptr.
  std::shared_ptr<SimEvent> find_event(const hx_event* event) const;
  // False when `event` is not a live event of `device`.
  bool remove_event(const SimDevice& device, const hx_event* event);

  hx_recording* add_recording(std::shared_ptr<const SimRecording> recording);
  // The live recording `recording`, or nullptr.
  std::shared_ptr<const SimRecording> find_recording(const hx_recording* recording) const;
  // False when `recording` is not a live recording of `device`.
  bool remove_recording(const SimDevice& device, const hx_recording* recording);

 private:
  mutable std::mutex mutex_;
  std::unordered_map<const void*, std::shared_ptr<SimStream>> streams_;
  std::unordered_map<const void*, std::shared_ptr<SimEvent>> events_;
  std::unordered_map<const void*, std::shared_ptr<const SimRecording>> recordings_;
};

}  // namespace hxsim
