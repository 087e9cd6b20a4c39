// A tensor: dtype, shape and a reference-counted buffer on one device. Copies of a Tensor share
// the buffer; the memory goes back to its device's allocator when the last copy goes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "hxrt/dtype.hpp"
#include "hxrt/error.hpp"
#include "hxrt/export.hpp"
#include "hxrt/shape.hpp"

namespace hxrt {

namespace detail {
struct TensorImpl;
}

class HXRT_API Tensor {
 public:
  Tensor() = default;  // an empty handle: valid() is false
  explicit Tensor(std::shared_ptr<detail::TensorImpl> impl) : impl_(std::move(impl)) {}

  bool valid() const { return impl_ != nullptr; }
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

  const std::shared_ptr<detail::TensorImpl>& impl() const { return impl_; }

 private:
  void check_element_type(DType requested) const;
  std::shared_ptr<detail::TensorImpl> impl_;
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
