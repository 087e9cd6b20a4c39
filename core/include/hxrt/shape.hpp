// A tensor's extents, stored inline (no allocation) up to kMaxRank dimensions, and the bytes a
// dense tensor of a shape holds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "hxrt/dtype.hpp"
#include "hxrt/export.hpp"

namespace hxrt {

// Every Shape has at most kMaxRank extents, each >= 0, and the product of its non-zero extents
// fits in int64_t (NumPy's rule: an empty tensor may not have extents whose product overflows
// either, so that no stride of it overflows).

class HXRT_API Shape {
 public:
  static constexpr int kMaxRank = 8;  // equals the ABI's HX_MAX_RANK

  Shape() = default;  // a scalar
  // Throws Error(kInvalidArgument) for a shape that breaks the rule above.
  Shape(std::initializer_list<int64_t> dims);
  explicit Shape(const std::vector<int64_t>& dims);
  Shape(const int64_t* dims, int rank);

  int rank() const { return rank_; }
  int64_t dim(int i) const { return dims_[i]; }
  int64_t operator[](int i) const { return dims_[i]; }
  const int64_t* data() const { return dims_; }
  int64_t num_elements() const;
  std::vector<int64_t> to_vector() const { return {dims_, dims_ + rank_}; }

  // Both throw Error(kInvalidArgument), leaving the shape as it was, for a result that breaks
  // the rule above (push_back also past kMaxRank).
  void set_dim(int i, int64_t value);
  void push_back(int64_t value);

  // "[2, 3]"; "[]" for a scalar.
  std::string to_string() const;

  friend HXRT_API bool operator==(const Shape& a, const Shape& b);
  friend bool operator!=(const Shape& a, const Shape& b) { return !(a == b); }

 private:
  int rank_ = 0;
  int64_t dims_[kMaxRank] = {};
};

// The most bytes one tensor may hold: byte offsets into it must fit in a signed 64-bit value.
inline constexpr size_t kMaxTensorBytes = INT64_MAX;

// Bytes of a dense tensor of `dtype` and `shape`: num_elements() * dtype_size(dtype). Throws
// Error(kInvalidArgument) for a dtype value outside the enum, and when the product of the
// non-zero extents times dtype_size(dtype) passes kMaxTensorBytes (NumPy's rule again: [2^62, 0]
// float32 is refused, as its strides in bytes would overflow).
HXRT_API size_t tensor_bytes(DType dtype, const Shape& shape);

}  // namespace hxrt
