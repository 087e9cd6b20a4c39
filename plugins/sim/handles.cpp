#include "handles.hpp"

namespace hxsim {
namespace {

template <class Object>
const SimDevice* device_of(const std::unordered_map<const void*, std::unique_ptr<Object>>& map,
                           const void* handle) {
  const auto found = map.find(handle);
  return found == map.end() ? nullptr : found->second->device;
}

template <class Object>
bool remove(std::unordered_map<const void*, std::unique_ptr<Object>>& map, const SimDevice& device,
            const void* handle) {
  const auto found = map.find(handle);
  if (found == map.end() || found->second->device != &device) return false;
  map.erase(found);
  return true;
}

}  // namespace

hx_stream* Handles::add_stream(const SimDevice& device) {
  auto stream = std::make_unique<SimStream>(SimStream{&device});
  hx_stream* handle = reinterpret_cast<hx_stream*>(stream.get());
  std::lock_guard<std::mutex> lock(mutex_);
  streams_.emplace(handle, std::move(stream));
  return handle;
}

const SimDevice* Handles::stream_device(const hx_stream* stream) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return device_of(streams_, stream);
}

bool Handles::remove_stream(const SimDevice& device, const hx_stream* stream) {
  std::lock_guard<std::mutex> lock(mutex_);
  return remove(streams_, device, stream);
}

hx_event* Handles::add_event(const SimDevice& device) {
  auto event = std::make_unique<SimEvent>(SimEvent{&device});
  hx_event* handle = reinterpret_cast<hx_event*>(event.get());
  std::lock_guard<std::mutex> lock(mutex_);
  events_.emplace(handle, std::move(event));
  return handle;
}

const SimDevice* Handles::event_device(const hx_event* event) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return device_of(events_, event);
}

bool Handles::remove_event(const SimDevice& device, const hx_event* event) {
  std::lock_guard<std::mutex> lock(mutex_);
  return remove(events_, device, event);
}

}  // namespace hxsim
