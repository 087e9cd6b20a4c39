// An object a library made (a cuDNN descriptor, a cuBLASLt layout), destroyed with its C++
// object and movable, so that a kernel instance can keep the objects of a shape it has planned
// (plan_cache.hpp).
#pragma once

#include <utility>

namespace hxcuda::kernels {

template <class Handle, class Status>
class LibraryObject {
 public:
  using Destroy = Status (*)(Handle);
  LibraryObject() = default;
  LibraryObject(Handle handle, Destroy destroy) : handle_(handle), destroy_(destroy) {}
  ~LibraryObject() {
    if (handle_ != nullptr) destroy_(handle_);
  }
  LibraryObject(LibraryObject&& other) noexcept
      : handle_(std::exchange(other.handle_, nullptr)), destroy_(other.destroy_) {}
  LibraryObject& operator=(LibraryObject&& other) noexcept {
    std::swap(handle_, other.handle_);
    std::swap(destroy_, other.destroy_);
    return *this;
  }
  LibraryObject(const LibraryObject&) = delete;
  LibraryObject& operator=(const LibraryObject&) = delete;

  Handle get() const { return handle_; }

 private:
  Handle handle_ = nullptr;
  Destroy destroy_ = nullptr;
};

}  // namespace hxcuda::kernels
