// Which steps of a compiled graph happen before which: X happens before Y when Y is reachable
// from X by predecessor edges (X != Y), so that every order the executor may choose runs X to
// completion before Y starts.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "graph/compile/memory_plan.hpp"

namespace hxrt::detail {

// Exact (a bit per pair of steps) while that fits in a byte budget; beyond it, a relation that
// may miss orderings but never claims one that does not exist: a step's predecessors, and the
// longest run of steps 0, 1, ... that provably all happen before it. Steps must be in
// topological order (checked by the caller).
class StepOrder {
 public:
  StepOrder(const std::vector<PlanStep>& steps, size_t max_bitset_bytes);

  bool happens_before(size_t x, size_t y) const;

  // Every step below this one happens before `y`.
  size_t ordered_prefix(size_t y) const { return prefix_[y]; }

  // The highest step that `x` happens before; `x` itself when none does.
  size_t last_follower(size_t x) const { return last_follower_[x]; }

  // The last step that `x` is not known to happen before: `x` itself when it happens before
  // every later step. From the step after it on, what is used only by `x` is dead.
  size_t last_concurrent(size_t x) const { return last_concurrent_[x]; }

  // The steps in [from, y) that happen before `y`, in increasing order; and how many they are.
  template <class Visit>
  void for_each_ancestor(size_t y, size_t from, Visit visit) const;
  size_t count_ancestors(size_t y, size_t from) const;

 private:
  void build_exact(const std::vector<PlanStep>& steps);
  void build_cheap(const std::vector<PlanStep>& steps);
  void find_last_concurrent_exact();
  void find_last_concurrent_cheap();
  const uint64_t* row(size_t y) const { return ancestor_bits_.data() + row_start_[y]; }
  static size_t row_words(size_t y) { return (y + 63) / 64; }

  bool exact_ = false;
  std::vector<size_t> prefix_;
  std::vector<size_t> last_concurrent_;
  std::vector<size_t> last_follower_;
  // Exact: row y holds a bit for every step below y, set when that step happens before y.
  std::vector<uint64_t> ancestor_bits_;
  std::vector<size_t> row_start_;
  // Cheap: each step's predecessors, sorted and without repeats.
  std::vector<std::vector<size_t>> sorted_predecessors_;
};

template <class Visit>
void StepOrder::for_each_ancestor(size_t y, size_t from, Visit visit) const {
  if (from >= y) return;
  if (!exact_) {
    const std::vector<size_t>& predecessors = sorted_predecessors_[y];
    for (auto it = std::lower_bound(predecessors.begin(), predecessors.end(), from);
         it != predecessors.end(); ++it) {
      visit(*it);
    }
    return;
  }
  const uint64_t* bits = row(y);
  for (size_t word = from / 64; word < row_words(y); ++word) {
    uint64_t remaining = bits[word];
    if (word == from / 64) remaining &= ~uint64_t{0} << (from % 64);
    while (remaining != 0) {
      visit(word * 64 + static_cast<size_t>(__builtin_ctzll(remaining)));
      remaining &= remaining - 1;
    }
  }
}

// Whether `value` is dead before `step` starts in every order the executor may choose: its
// producer and every reader of it happen before `step`.
bool dead_before(const StepOrder& order, const PlanValue& value, size_t step);

// Whether two values may share memory: one of them is dead before the other is written.
inline bool may_share(const StepOrder& order, const PlanValue& a, const PlanValue& b) {
  return dead_before(order, a, b.producer) || dead_before(order, b, a.producer);
}

}  // namespace hxrt::detail
