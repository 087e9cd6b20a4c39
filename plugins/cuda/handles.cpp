#include "handles.hpp"

namespace hxcuda {
namespace {

template <class Object>
using Registry = std::unordered_map<const void*, std::unique_ptr<Object>>;

template <class Handle, class Object>
Handle* adopt(std::mutex& mutex, Registry<Object>& registry, std::unique_ptr<Object> object) {
  Handle* handle = reinterpret_cast<Handle*>(object.get());
  std::lock_guard<std::mutex> lock(mutex);
  registry.emplace(handle, std::move(object));
  return handle;
}

template <class Handle, class Object>
Handle* add(std::mutex& mutex, Registry<Object>& registry, CudaDevice& device) {
  return adopt<Handle>(mutex, registry, std::make_unique<Object>(device));
}

template <class Object>
Object* find(std::mutex& mutex, const Registry<Object>& registry, const void* handle) {
  std::lock_guard<std::mutex> lock(mutex);
  const auto found = registry.find(handle);
  return found == registry.end() ? nullptr : found->second.get();
}

template <class Object>
bool remove(std::mutex& mutex, Registry<Object>& registry, const CudaDevice& device,
            const void* handle) {
  std::unique_ptr<Object> removed;
  {
    std::lock_guard<std::mutex> lock(mutex);
    const auto found = registry.find(handle);
    if (found == registry.end() || &found->second->device() != &device) return false;
    removed = std::move(found->second);
    registry.erase(found);
  }
  // Destroyed outside the lock: destroying a CUDA stream or event is a driver call.
  return true;
}

}  // namespace

hx_stream* Handles::add_stream(CudaDevice& device) {
  return add<hx_stream>(mutex_, streams_, device);
}

CudaStream* Handles::find_stream(const hx_stream* handle) const {
  return find(mutex_, streams_, handle);
}

bool Handles::remove_stream(const CudaDevice& device, const hx_stream* handle) {
  return remove(mutex_, streams_, device, handle);
}

hx_event* Handles::add_event(CudaDevice& device) { return add<hx_event>(mutex_, events_, device); }

CudaEvent* Handles::find_event(const hx_event* handle) const {
  return find(mutex_, events_, handle);
}

bool Handles::remove_event(const CudaDevice& device, const hx_event* handle) {
  return remove(mutex_, events_, device, handle);
}

hx_recording* Handles::add_recording(std::unique_ptr<CudaRecording> recording) {
  return adopt<hx_recording>(mutex_, recordings_, std::move(recording));
}

CudaRecording* Handles::find_recording(const hx_recording* handle) const {
  return find(mutex_, recordings_, handle);
}

bool Handles::remove_recording(const CudaDevice& device, const hx_recording* handle) {
  return remove(mutex_, recordings_, device, handle);
}

}  // namespace hxcuda
