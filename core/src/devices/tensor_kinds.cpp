#include "devices/tensor_kinds.hpp"

#include <memory>
#include <new>

#include "base/attr_identity.hpp"

namespace hxrt::detail {
namespace {

size_t kind_hash(DType dtype, const Shape& shape) {
  uint64_t hash = mix_fingerprint(static_cast<uint64_t>(dtype) << 8 | shape.rank(), 0);
  for (int d = 0; d < shape.rank(); ++d) {
    hash = mix_fingerprint(hash, static_cast<uint64_t>(shape[d]));
  }
  return static_cast<size_t>(hash ^ (hash >> 32));
}

}  // namespace

const TensorKind* TensorKinds::intern(DType dtype, const Shape& shape) {
  const TensorKind::Probe probe{dtype, shape, kind_hash(dtype, shape)};
  if (const TensorKind* found = table_.find(probe.hash, probe)) return found;
  // Reserved before it is made, so that racing threads never make more than kMostKinds.
  if (count_.fetch_add(1, std::memory_order_relaxed) >= kMostKinds) {
    count_.fetch_sub(1, std::memory_order_relaxed);
    return nullptr;
  }
  try {
    auto made = std::make_unique<TensorKind>(TensorKind{dtype, shape, probe.hash});
    const TensorKind* const mine = made.get();
    const TensorKind& kept = table_.insert(std::move(made), probe);
    if (&kept != mine) count_.fetch_sub(1, std::memory_order_relaxed);  // another thread's
    return &kept;
  } catch (const std::bad_alloc&) {
    count_.fetch_sub(1, std::memory_order_relaxed);
    return nullptr;  // a kind only speeds calls up: the tensor does without
  }
}

}  // namespace hxrt::detail
