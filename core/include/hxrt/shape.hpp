// A tensor's extents, stored inline (no allocation) up to kMaxRank dimensions.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace hxrt {

class Shape {
 public:
  static constexpr int kMaxRank = 8;  // equals the ABI's HX_MAX_RANK

  Shape() = default;  // a scalar
  // Throws Error(kInvalidArgument) for more than kMaxRank dimensions or a negative extent.
  Shape(std::initializer_list<int64_t> dims);
  explicit Shape(const std::vector<int64_t>& dims);
  Shape(const int64_t* dims, int rank);

  int rank() const { return rank_; }
  int64_t dim(int i) const { return dims_[i]; }
  int64_t operator[](int i) const { return dims_[i]; }
  const int64_t* data() const { return dims_; }
  int64_t num_elements() const;
  std::vector<int64_t> to_vector() const { return {dims_, dims_ + rank_}; }

  void set_dim(int i, int64_t value) { dims_[i] = value; }
  // Throws Error(kInvalidArgument) past kMaxRank.
  void push_back(int64_t value);

  // "[2, 3]"; "[]" for a scalar.
  std::string to_string() const;

  friend bool operator==(const Shape& a, const Shape& b);
  friend bool operator!=(const Shape& a, const Shape& b) { return !(a == b); }

 private:
  int rank_ = 0;
  int64_t dims_[kMaxRank] = {};
};

}  // namespace hxrt
