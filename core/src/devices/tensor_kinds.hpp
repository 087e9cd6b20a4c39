// A tensor's kind, its dtype and shape on one device, interned by the device: every tensor of
// one kind on a device points to the same record, so that the eager path tells whether a
// call's inputs are those its kept plan was made for by comparing one pointer per input, not
// a device, a dtype, a rank and every extent (eager/call_plan.hpp). Records are never
// removed; past kMostKinds of them a device interns no more, and its new tensors have no
// kind (nullptr), which costs their calls the full comparison, never a wrong answer.
#pragma once

#include <atomic>
#include <cstddef>

#include "hxrt/dtype.hpp"
#include "hxrt/shape.hpp"
#include "base/insert_only_table.hpp"

namespace hxrt::detail {

struct TensorKind {
  // What a lookup compares: a kind's dtype and shape, borrowed.
  struct Probe {
    DType dtype;
    const Shape& shape;
    size_t hash;
  };

  size_t hash() const { return hash_; }
  bool matches(const Probe& probe) const {
    return probe.dtype == dtype && probe.shape == shape;
  }

  DType dtype;
  Shape shape;
  size_t hash_;
};

class TensorKinds {
 public:
  static constexpr size_t kMostKinds = 16384;

  // The record of (`dtype`, `shape`): found, or made now; nullptr once kMostKinds are made.
  // Lock-free when found. Never throws: without memory for a new record, nullptr too.
  const TensorKind* intern(DType dtype, const Shape& shape);

 private:
  InsertOnlyTable<TensorKind> table_;
  std::atomic<size_t> count_{0};
};

}  // namespace hxrt::detail
