#include "handles.hpp"

#include "device.hpp"
#include "plugin_state.hpp"

namespace hxsim {

SimStream::~SimStream() {
  worker.stop();
  for (const WorkFailure& failure : worker.uncleared()) {
    device->plugin.warn(
        "%s: a stream was destroyed before a stream synchronize reported this failure of its "
        "work: %s",
        device->label.c_str(), failure.message.c_str());
  }
}
namespace {

template <class Object>
const SimDevice* device_of(const std::unordered_map<const void*, std::shared_ptr<Object>>& map,
                           const void* handle) {
  const auto found = map.find(handle);
  return found == map.end() ? nullptr : found->second->device;
}

template <class Object>
bool remove(std::unordered_map<const void*, std::shared_ptr<Object>>& map, const SimDevice& device,
            const void* handle, std::unique_lock<std::mutex>& lock) {
  const auto found = map.find(handle);
  if (found == map.end() || found->second->device != &device) return false;
  std::shared_ptr<Object> removed = std::move(found->second);
  map.erase(found);
  // A stream's destructor drains its queue: not under the lock, which its work may need.
  lock.unlock();
  return true;
}

template <class Object>
std::shared_ptr<Object> find(const std::unordered_map<const void*, std::shared_ptr<Object>>& map,
                             const void* handle) {
  const auto found = map.find(handle);
  return found == map.end() ? nullptr : found->second;
}

}  // namespace

hx_stream* Handles::add_stream(const SimDevice& device) {
  auto stream = std::make_shared<SimStream>(device);
  hx_stream* handle = reinterpret_cast<hx_stream*>(stream.get());
  std::lock_guard<std::mutex> lock(mutex_);
  streams_.emplace(handle, std::move(stream));
  return handle;
}

const SimDevice* Handles::stream_device(const hx_stream* stream) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return device_of(streams_, stream);
}

std::shared_ptr<SimStream> Handles::find_stream(const hx_stream* stream) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return find(streams_, stream);
}

bool Handles::remove_stream(const SimDevice& device, const hx_stream* stream) {
  std::unique_lock<std::mutex> lock(mutex_);
  return remove(streams_, device, stream, lock);
}

hx_event* Handles::add_event(const SimDevice& device) {
  auto event = std::make_shared<SimEvent>(device);
  hx_event* handle = reinterpret_cast<hx_event*>(event.get());
  std::lock_guard<std::mutex> lock(mutex_);
  events_.emplace(handle, std::move(event));
  return handle;
}

const SimDevice* Handles::event_device(const hx_event* event) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return device_of(events_, event);
}

std::shared_ptr<SimEvent> Handles::find_event(const hx_event* event) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return find(events_, event);
}

bool Handles::remove_event(const SimDevice& device, const hx_event* event) {
  std::unique_lock<std::mutex> lock(mutex_);
  return remove(events_, device, event, lock);
}

hx_recording* Handles::add_recording(std::shared_ptr<const SimRecording> recording) {
  hx_recording* handle =
      reinterpret_cast<hx_recording*>(const_cast<SimRecording*>(recording.get()));
  std::lock_guard<std::mutex> lock(mutex_);
  recordings_.emplace(handle, std::move(recording));
  return handle;
}

std::shared_ptr<const SimRecording> Handles::find_recording(
    const hx_recording* recording) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return find(recordings_, recording);
}

bool Handles::remove_recording(const SimDevice& device, const hx_recording* recording) {
  // Its items' pins go with it, after the lock: releasing a pin may free a buffer.
  std::unique_lock<std::mutex> lock(mutex_);
  return remove(recordings_, device, recording, lock);
}

}  // namespace hxsim
