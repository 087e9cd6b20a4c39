#include "hxrt/shape.hpp"

#include <string>

#include "hxrt/error.hpp"

namespace hxrt {

namespace {

std::string dims_to_string(const int64_t* dims, size_t rank) {
  std::string out = "[";
  for (size_t i = 0; i < rank; ++i) {
    if (i > 0) out += ", ";
    out += std::to_string(dims[i]);
  }
  return out + "]";
}

// The element count, or -1 when it does not fit in int64_t. Any zero extent makes the count 0,
// however large the others are.
int64_t element_count(const int64_t* dims, int rank) {
  for (int i = 0; i < rank; ++i) {
    if (dims[i] == 0) return 0;
  }
  int64_t count = 1;
  for (int i = 0; i < rank; ++i) {
    if (__builtin_mul_overflow(count, dims[i], &count)) return -1;
  }
  return count;
}

void check_dims(const int64_t* dims, size_t rank) {
  if (rank > static_cast<size_t>(Shape::kMaxRank)) {
    throw Error(StatusCode::kInvalidArgument,
                "shape " + dims_to_string(dims, rank) + " has " + std::to_string(rank) +
                    " dimensions; at most " + std::to_string(Shape::kMaxRank) +
                    " are supported");
  }
  for (size_t i = 0; i < rank; ++i) {
    if (dims[i] < 0) {
      throw Error(StatusCode::kInvalidArgument,
                  "shape " + dims_to_string(dims, rank) + " has a negative extent " +
                      std::to_string(dims[i]) + " in dimension " + std::to_string(i) +
                      "; extents must be >= 0");
    }
  }
  if (element_count(dims, static_cast<int>(rank)) < 0) {
    throw Error(StatusCode::kInvalidArgument,
                "shape " + dims_to_string(dims, rank) +
                    " has more elements than fit in a 64-bit count");
  }
}

}  // namespace

Shape::Shape(std::initializer_list<int64_t> dims)
    : Shape(dims.begin(), static_cast<int>(dims.size())) {}

Shape::Shape(const std::vector<int64_t>& dims) {
  check_dims(dims.data(), dims.size());
  rank_ = static_cast<int>(dims.size());
  for (int i = 0; i < rank_; ++i) dims_[i] = dims[static_cast<size_t>(i)];
}

Shape::Shape(const int64_t* dims, int rank) {
  if (rank < 0) {
    throw Error(StatusCode::kInvalidArgument,
                "shape rank " + std::to_string(rank) + " is negative; a rank is 0 (a scalar) to " +
                    std::to_string(kMaxRank));
  }
  check_dims(dims, static_cast<size_t>(rank));
  rank_ = rank;
  for (int i = 0; i < rank_; ++i) dims_[i] = dims[i];
}

int64_t Shape::num_elements() const {
  const int64_t count = element_count(dims_, rank_);
  // Only set_dim, which does not check, can get a shape here.
  if (count < 0) {
    throw Error(StatusCode::kInvalidArgument,
                "shape " + to_string() + " has more elements than fit in a 64-bit count");
  }
  return count;
}

void Shape::push_back(int64_t value) {
  int64_t grown[kMaxRank + 1];
  for (int i = 0; i < rank_; ++i) grown[i] = dims_[i];
  grown[rank_] = value;
  check_dims(grown, static_cast<size_t>(rank_) + 1);
  dims_[rank_++] = value;
}

std::string Shape::to_string() const { return dims_to_string(dims_, static_cast<size_t>(rank_)); }

bool operator==(const Shape& a, const Shape& b) {
  if (a.rank_ != b.rank_) return false;
  for (int i = 0; i < a.rank_; ++i) {
    if (a.dims_[i] != b.dims_[i]) return false;
  }
  return true;
}

}  // namespace hxrt
