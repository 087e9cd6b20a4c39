// A tensor: dtype, shape and a reference-counted buffer on one device. Copies of a Tensor share
// the buffer; the memory goes back to its device's allocator when the last copy goes.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "hxrt/dtype.hpp"
#include "hxrt/error.hpp"
#include "hxrt/export.hpp"
#include "hxrt/shape.hpp"

namespace hxrt {

namespace detail {
struct TensorImpl;

// The reference count of a tensor's handle: TensorImpl's base, here so that copying and
// destroying a Tensor (every op's output) are inline. An intrusive count rather than a
// std::shared_ptr's control block: a handle is one allocation, and its end one direct call.
class TensorCount {
 public:
  TensorCount(const TensorCount&) = delete;
  TensorCount& operator=(const TensorCount&) = delete;

  void retain() noexcept { refs_.fetch_add(1, std::memory_order_relaxed); }
  // Drops one reference; true when it was the last, and the handle is the caller's to destroy.
  // The last one needs no read-modify-write: whoever holds it alone, nobody can add one.
  bool release() noexcept {
    return refs_.load(std::memory_order_acquire) == 1 ||
           refs_.fetch_sub(1, std::memory_order_acq_rel) == 1;
  }

 protected:
  TensorCount() = default;
  ~TensorCount() = default;

 private:
  std::atomic<uint32_t> refs_{1};
};
}  // namespace detail

class HXRT_API Tensor {
 public:
  Tensor() = default;  // an empty handle: valid() is false
  // Takes over the one reference a new handle holds (detail::make_tensor).
  inline explicit Tensor(detail::TensorImpl* adopted) noexcept;  // tensor_impl.hpp, internal
  Tensor(const Tensor& other) noexcept : handle_(other.handle_) {
    if (handle_ != nullptr) handle_->retain();
  }
  Tensor(Tensor&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
  Tensor& operator=(const Tensor& other) noexcept {
    Tensor(other).swap(*this);
    return *this;
  }
  Tensor& operator=(Tensor&& other) noexcept {
    Tensor(std::move(other)).swap(*this);
    return *this;
  }
  ~Tensor() {
    if (handle_ != nullptr && handle_->release()) destroy(handle_);
  }
  void swap(Tensor& other) noexcept { std::swap(handle_, other.handle_); }

  bool valid() const { return handle_ != nullptr; }
  // Whether both are copies of one tensor, holding the same memory (as NumPy's shares_memory;
  // no two tensors share part of a buffer). False for an empty Tensor.
  bool shares_memory_with(const Tensor& other) const {
    return handle_ != nullptr && handle_ == other.handle_;
  }
  DType dtype() const;
  const Shape& shape() const;
  int64_t num_elements() const { return shape().num_elements(); }
  size_t byte_size() const;
  // Canonical name of the device that holds the data:
  // "/job:localhost/replica:0/task:0/device:CPU:0".
  const std::string& device() const;

  // Blocks until the work that writes this tensor has completed (at once on a device without
  // streams). An error of that work is thrown here as an Error naming the op, the device and
  // the plugin, and again at every later wait for this tensor; other tensors stay usable.
  void wait() const;
  // Whether that work has completed (or failed, which wait() then reports); never blocks.
  bool ready() const;
  // Copies the data to host memory, after the work that writes it (and only that) has
  // completed; `bytes` must equal byte_size().
  void copy_to_host(void* dst, size_t bytes) const;
  // The host address of element [0, ..., 0], for a tensor in host memory (on a device whose
  // memory is the host's, the CPU): what another library may read and write in place, as
  // DLPack exchanges tensors, for as long as a Tensor of it lives. nullptr for a tensor in a
  // device's own memory, which only copies reach. The elements are valid once wait() returns.
  void* host_address() const;
  // The elements, read back to the host. T must match dtype(); a bool tensor stores one byte
  // per element, 0 or 1.
  template <class T>
  std::vector<T> to_vector() const {
    check_element_type(dtype_of<T>());
    if constexpr (std::is_same_v<T, bool>) {
      // std::vector<bool> packs bits and has no data(): read the bytes, then widen them.
      std::vector<unsigned char> stored(static_cast<size_t>(num_elements()));
      copy_to_host(stored.data(), stored.size());
      return std::vector<bool>(stored.begin(), stored.end());
    } else {
      std::vector<T> out(static_cast<size_t>(num_elements()));
      copy_to_host(out.data(), out.size() * sizeof(T));
      return out;
    }
  }
  // Nested brackets like NumPy: "[[22, 28], [49, 64]]"; f16/bf16 printed as floats.
  std::string to_string() const;

  // The handle, or nullptr for an empty Tensor. For the library's inside (tensor_impl.hpp).
  inline detail::TensorImpl* impl() const noexcept;

 private:
  // Destroys a handle whose last reference went: its memory goes back to the device.
  static void destroy(detail::TensorCount* handle) noexcept;
  void check_element_type(DType requested) const;
  detail::TensorCount* handle_ = nullptr;
};

// A Tensor borrowed for one call: Runtime::execute's input lists hold these, so that
// `rt.execute(op, {a, b})` copies no handle and changes no reference count. Made implicitly
// from a Tensor, it is valid while that Tensor is (a temporary lives to the end of the full
// expression that calls execute).
class TensorArg {
 public:
  TensorArg(const Tensor& tensor) : tensor_(&tensor) {}  // NOLINT: implicit by design
  const Tensor& operator*() const { return *tensor_; }
  const Tensor* operator->() const { return tensor_; }

 private:
  const Tensor* tensor_;
};

}  // namespace hxrt
