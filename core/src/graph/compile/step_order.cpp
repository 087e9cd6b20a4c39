#include "graph/compile/step_order.hpp"

#include <algorithm>

namespace hxrt::detail {
namespace {

std::vector<size_t> sorted_unique(std::vector<size_t> indices) {
  std::sort(indices.begin(), indices.end());
  indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
  return indices;
}

}  // namespace

StepOrder::StepOrder(const std::vector<PlanStep>& steps, size_t max_bitset_bytes)
    : prefix_(steps.size(), 0), last_concurrent_(steps.size(), 0), last_follower_(steps.size(), 0) {
  // From the last step down: each step's own last follower is known when its predecessors
  // learn of it.
  for (size_t y = steps.size(); y-- > 0;) {
    last_follower_[y] = std::max(last_follower_[y], y);
    for (const size_t p : steps[y].predecessors) {
      last_follower_[p] = std::max(last_follower_[p], last_follower_[y]);
    }
  }
  // Row y has a bit per step below y; the sum stops growing once it passes the budget, so
  // that it cannot overflow.
  const size_t max_words = max_bitset_bytes / sizeof(uint64_t);
  size_t words = 0;
  row_start_.reserve(steps.size());
  for (size_t y = 0; y < steps.size() && words <= max_words; ++y) {
    row_start_.push_back(words);
    words += row_words(y);
  }
  exact_ = words <= max_words;
  if (exact_) {
    ancestor_bits_.assign(words, 0);
    build_exact(steps);
    find_last_concurrent_exact();
  } else {
    row_start_ = {};
    build_cheap(steps);
    find_last_concurrent_cheap();
  }
}

void StepOrder::build_exact(const std::vector<PlanStep>& steps) {
  for (size_t y = 0; y < steps.size(); ++y) {
    uint64_t* bits = ancestor_bits_.data() + row_start_[y];
    // Highest predecessors first: one already marked is an ancestor of another predecessor,
    // and its own ancestors are marked with it.
    std::vector<size_t> predecessors = sorted_unique(steps[y].predecessors);
    for (auto it = predecessors.rbegin(); it != predecessors.rend(); ++it) {
      const size_t p = *it;
      const uint64_t bit = uint64_t{1} << (p % 64);
      if (bits[p / 64] & bit) continue;
      bits[p / 64] |= bit;
      const uint64_t* inherited = row(p);
      for (size_t word = 0; word < row_words(p); ++word) bits[word] |= inherited[word];
    }
    size_t prefix = 0;
    for (size_t word = 0; word < row_words(y); ++word) {
      if (bits[word] != ~uint64_t{0}) {
        prefix += static_cast<size_t>(__builtin_ctzll(~bits[word]));
        break;
      }
      prefix += 64;
    }
    prefix_[y] = prefix;
  }
}

void StepOrder::build_cheap(const std::vector<PlanStep>& steps) {
  sorted_predecessors_.reserve(steps.size());
  for (size_t y = 0; y < steps.size(); ++y) {
    sorted_predecessors_.push_back(sorted_unique(steps[y].predecessors));
    // What precedes a predecessor precedes y, and a predecessor right at the end of the
    // ordered prefix extends it.
    size_t prefix = 0;
    for (const size_t p : sorted_predecessors_[y]) prefix = std::max(prefix, prefix_[p]);
    for (const size_t p : sorted_predecessors_[y]) {
      if (p == prefix) ++prefix;
    }
    prefix_[y] = prefix;
  }
}

// From the last step down, each step takes the steps below it that it does not follow and
// that no higher step took, and itself if still free.
void StepOrder::find_last_concurrent_exact() {
  const size_t num_steps = last_concurrent_.size();
  std::vector<uint64_t> unassigned(row_words(num_steps), ~uint64_t{0});
  for (size_t y = num_steps; y-- > 0;) {
    const uint64_t* ancestors = row(y);
    for (size_t word = 0; word < row_words(y); ++word) {
      uint64_t taken = unassigned[word] & ~ancestors[word];
      if (word == y / 64) taken &= (uint64_t{1} << (y % 64)) - 1;
      unassigned[word] &= ~taken;
      for (; taken != 0; taken &= taken - 1) {
        last_concurrent_[word * 64 + static_cast<size_t>(__builtin_ctzll(taken))] = y;
      }
    }
    const uint64_t self = uint64_t{1} << (y % 64);
    if (unassigned[y / 64] & self) {
      last_concurrent_[y] = y;
      unassigned[y / 64] &= ~self;
    }
  }
}

// x is known to precede every step from y on when each of them has an ordered prefix past x
// (edges straight from x are left out: this only retires values later): the last concurrent
// step is the last y whose shortest prefix from y on is at most x.
void StepOrder::find_last_concurrent_cheap() {
  const size_t num_steps = prefix_.size();
  std::vector<size_t> shortest_prefix_from(num_steps + 1, num_steps);
  for (size_t y = num_steps; y-- > 0;) {
    shortest_prefix_from[y] = std::min(shortest_prefix_from[y + 1], prefix_[y]);
  }
  size_t y = 0;
  for (size_t x = 0; x < num_steps; ++x) {
    while (y + 1 < num_steps && shortest_prefix_from[y + 1] <= x) ++y;
    last_concurrent_[x] = y;
  }
}

bool StepOrder::happens_before(size_t x, size_t y) const {
  if (x >= y) return false;
  if (!exact_) {
    return x < prefix_[y] ||
           std::binary_search(sorted_predecessors_[y].begin(), sorted_predecessors_[y].end(), x);
  }
  return (row(y)[x / 64] >> (x % 64)) & 1;
}

size_t StepOrder::count_ancestors(size_t y, size_t from) const {
  if (from >= y) return 0;
  if (!exact_) {
    const std::vector<size_t>& predecessors = sorted_predecessors_[y];
    return static_cast<size_t>(predecessors.end() -
                               std::lower_bound(predecessors.begin(), predecessors.end(), from));
  }
  const uint64_t* bits = row(y);
  size_t count = 0;
  for (size_t word = from / 64; word < row_words(y); ++word) {
    uint64_t value = bits[word];
    if (word == from / 64) value &= ~uint64_t{0} << (from % 64);
    count += static_cast<size_t>(__builtin_popcountll(value));
  }
  return count;
}

bool dead_before(const StepOrder& order, const PlanValue& value, size_t step) {
  if (!order.happens_before(value.producer, step)) return false;
  return std::all_of(value.readers.begin(), value.readers.end(),
                     [&](size_t reader) { return order.happens_before(reader, step); });
}

}  // namespace hxrt::detail
