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

// The product of the non-zero extents, or -1 when it does not fit in int64_t. A shape's
// element count is this product, or 0 when an extent is 0.
int64_t nonzero_extent_product(const int64_t* dims, size_t rank) {
  int64_t product = 1;
  for (size_t i = 0; i < rank; ++i) {
    if (dims[i] != 0 && __builtin_mul_overflow(product, dims[i], &product)) return -1;
  }
  return product;
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
  if (nonzero_extent_product(dims, rank) < 0) {
    throw Error(StatusCode::kInvalidArgument,
                "shape " + dims_to_string(dims, rank) +
                    " has more elements than fit in a 64-bit count (counting only its non-zero "
                    "extents, so that no stride overflows); use smaller extents");
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
  for (int i = 0; i < rank_; ++i) {
    if (dims_[i] == 0) return 0;
  }
  return nonzero_extent_product(dims_, static_cast<size_t>(rank_));
}

void Shape::set_dim(int i, int64_t value) {
  if (i < 0 || i >= rank_) {
    throw Error(StatusCode::kInvalidArgument,
                "set_dim(" + std::to_string(i) + ") on shape " + to_string() +
                    ": dimensions are numbered 0 to rank - 1");
  }
  int64_t changed[kMaxRank];
  for (int d = 0; d < rank_; ++d) changed[d] = dims_[d];
  changed[i] = value;
  check_dims(changed, static_cast<size_t>(rank_));
  dims_[i] = value;
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

// On every op's path (each output is checked, then allocated): one pass over the extents.
size_t tensor_bytes(DType dtype, const Shape& shape) {
  const size_t element_bytes = dtype_size(dtype);
  if (element_bytes == 0) {
    throw Error(StatusCode::kInvalidArgument,
                "dtype value " + std::to_string(static_cast<int32_t>(dtype)) +
                    " is not a dtype; expected a hxrt::DType enumerator");
  }
  // The element size times the non-zero extents: once past kMaxTensorBytes it stays past it,
  // so a wrap of the unsigned product can only happen after the limit was already crossed.
  uint64_t bytes = element_bytes;
  bool empty = false;
  bool too_large = false;
  for (int i = 0; i < shape.rank(); ++i) {
    const auto extent = static_cast<uint64_t>(shape[i]);
    if (extent == 0) {
      empty = true;
    } else {
      too_large |= __builtin_mul_overflow(bytes, extent, &bytes);
    }
  }
  if (too_large || bytes > kMaxTensorBytes) {
    throw Error(StatusCode::kInvalidArgument,
                "a tensor of shape " + shape.to_string() + " and dtype " + dtype_name(dtype) +
                    " would hold more than " + std::to_string(kMaxTensorBytes) +
                    " bytes, the most one tensor may hold (counting only its non-zero extents, "
                    "so that no stride overflows); use smaller extents");
  }
  return empty ? 0 : static_cast<size_t>(bytes);
}

}  // namespace hxrt
