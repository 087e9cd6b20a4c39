// The streams and events one plugin instance has handed out. Work on a simulated device runs
// at once, in order, so a stream has nothing to queue and an event is complete when recorded;
// but each is a real object with an owner, and every handle the core passes back is looked up
// here, so a handle that was never created (or already destroyed, or belongs to another
// device) is an INVALID_ARGUMENT rather than a wild pointer.
#pragma once

#include <hxrt/plugin_api.h>

#include <memory>
#include <mutex>
#include <unordered_map>

namespace hxsim {

struct SimDevice;

struct SimStream {
  const SimDevice* device;
};

struct SimEvent {
  const SimDevice* device;
};

class Handles {
 public:
  hx_stream* add_stream(const SimDevice& device);
  // The device of a live stream; nullptr when `stream` is not one.
  const SimDevice* stream_device(const hx_stream* stream) const;
  // False when `stream` is not a live stream of `device`.
  bool remove_stream(const SimDevice& device, const hx_stream* stream);

  hx_event* add_event(const SimDevice& device);
  // The device of a live event; nullptr when `event` is not one.
  const SimDevice* event_device(const hx_event* event) const;
  // False when `event` is not a live event of `device`.
  bool remove_event(const SimDevice& device, const hx_event* event);

 private:
  mutable std::mutex mutex_;
  std::unordered_map<const void*, std::unique_ptr<SimStream>> streams_;
  std::unordered_map<const void*, std::unique_ptr<SimEvent>> events_;
};

}  // namespace hxsim
