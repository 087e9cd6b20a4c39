#include "graph/compile/shared_arena_packing.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <optional>
#include <queue>
#include <utility>

#include "graph/compile/arena_layout.hpp"

namespace hxrt::detail {
namespace {

constexpr uint64_t kUnbounded = std::numeric_limits<uint64_t>::max();

// Values are handled by position: their order of production, by producer, then by index.
class SharedPacker {
 public:
  SharedPacker(size_t num_steps, const StepOrder& order, const std::vector<PlanValue>& values,
               const std::vector<uint64_t>& sizes, size_t num_devices);

  void pack_all(std::vector<uint64_t>& offsets);
  std::vector<uint64_t> arena_bytes() const;

 private:
  struct Gap {
    uint64_t start;
    uint64_t bytes;
  };

  const PlanValue& value(size_t position) const { return values_[by_producer_[position]]; }
  uint64_t size(size_t position) const { return sizes_[by_producer_[position]]; }
  ArenaLayout& layout(size_t position) { return layouts_[value(position).device]; }

  void settle_before(size_t step);
  bool dead_before(size_t position, size_t step) const;
  void find_free_owners(size_t position);
  void consider_owner(size_t owner, size_t step);
  uint64_t choose_offset(size_t position);

  const StepOrder& order_;
  const std::vector<PlanValue>& values_;
  const std::vector<uint64_t>& sizes_;
  std::vector<ArenaLayout> layouts_;
  std::vector<size_t> by_producer_;    // position -> value index
  std::vector<size_t> first_of_step_;  // step -> first position it produces; one past the end too
  std::vector<uint64_t> offsets_;      // by position
  // The owner of what values that will never again be dead hold: one past the last position,
  // so that it is never a candidate, nor marked free.
  const size_t pinned_owner_;
  using StepQueue = std::priority_queue<std::pair<size_t, size_t>,
                                        std::vector<std::pair<size_t, size_t>>, std::greater<>>;
  // (step, position) of each placed value, lowest step first: from the step after the last
  // concurrent with one of its uses, it is dead before every step; from the step after the
  // lowest last follower of one, before none.
  StepQueue by_last_concurrent_;
  StepQueue by_last_follower_;
  // The owners dead before the producer of the value being placed, marked with its stamp.
  std::vector<size_t> free_stamp_;
  size_t stamp_ = 0;
  std::vector<size_t> free_owners_;
  std::vector<size_t> candidates_;
  std::vector<uint64_t> free_starts_;
};

SharedPacker::SharedPacker(size_t num_steps, const StepOrder& order,
                           const std::vector<PlanValue>& values, const std::vector<uint64_t>& sizes,
                           size_t num_devices)
    : order_(order),
      values_(values),
      sizes_(sizes),
      layouts_(num_devices),
      by_producer_(values.size()),
      first_of_step_(num_steps + 1, 0),
      offsets_(values.size(), 0),
      pinned_owner_(values.size()),
      free_stamp_(values.size() + 1, 0) {
  for (const PlanValue& value : values) ++first_of_step_[value.producer + 1];
  for (size_t step = 0; step < num_steps; ++step) first_of_step_[step + 1] += first_of_step_[step];
  std::vector<size_t> next = first_of_step_;
  for (size_t index = 0; index < values.size(); ++index) {
    by_producer_[next[values[index].producer]++] = index;
  }
}

void SharedPacker::pack_all(std::vector<uint64_t>& offsets) {
  for (size_t position = 0; position < by_producer_.size(); ++position) {
    const PlanValue& placed = value(position);
    if (!placed.shareable) continue;
    settle_before(placed.producer);
    const uint64_t offset = choose_offset(position);
    offsets_[position] = offset;
    offsets[by_producer_[position]] = offset;
    // It may be dead before the steps that follow all its uses, up to the lowest last follower
    // of one; before all those from the step after the last concurrent with one.
    size_t last_use = placed.producer;
    size_t last_follower = order_.last_follower(placed.producer);
    size_t last_concurrent = order_.last_concurrent(placed.producer);
    for (const size_t reader : placed.readers) {
      last_use = std::max(last_use, reader);
      last_follower = std::min(last_follower, order_.last_follower(reader));
      last_concurrent = std::max(last_concurrent, order_.last_concurrent(reader));
    }
    if (last_follower <= last_use) {
      layout(position).occupy(offset, offset + size(position), pinned_owner_);
      continue;
    }
    layout(position).occupy(offset, offset + size(position), position);
    by_last_follower_.emplace(last_follower, position);
    by_last_concurrent_.emplace(last_concurrent, position);
  }
}

std::vector<uint64_t> SharedPacker::arena_bytes() const {
  std::vector<uint64_t> bytes;
  bytes.reserve(layouts_.size());
  for (const ArenaLayout& arena : layouts_) bytes.push_back(arena.high_water());
  return bytes;
}

// Values whose fate no longer depends on the step are no longer looked at: one dead before
// every step from here on leaves a hole; one dead before none passes what it holds to the
// pinned owner.
void SharedPacker::settle_before(size_t step) {
  while (!by_last_concurrent_.empty() && by_last_concurrent_.top().first < step) {
    const size_t position = by_last_concurrent_.top().second;
    by_last_concurrent_.pop();
    if (!layout(position).owns(position)) continue;
    layout(position).release(offsets_[position], offsets_[position] + size(position), position);
  }
  while (!by_last_follower_.empty() && by_last_follower_.top().first < step) {
    const size_t position = by_last_follower_.top().second;
    by_last_follower_.pop();
    if (!layout(position).owns(position)) continue;
    layout(position).hand_over(offsets_[position], offsets_[position] + size(position), position,
                               pinned_owner_);
  }
}

bool SharedPacker::dead_before(size_t position, size_t step) const {
  const PlanValue& candidate = value(position);
  if (!order_.happens_before(candidate.producer, step)) return false;
  return std::all_of(candidate.readers.begin(), candidate.readers.end(),
                     [&](size_t reader) { return order_.happens_before(reader, step); });
}

void SharedPacker::consider_owner(size_t owner, size_t step) {
  if (!dead_before(owner, step)) return;
  free_stamp_[owner] = stamp_;
  free_owners_.push_back(owner);
}

// The owners of the arena that are dead before the value's producer: those produced in its
// ordered prefix, then those produced by its other ancestors, found from the owners or from
// the ancestors, whichever are fewer (a wide graph has many owners and few ancestors, a long
// one the other way round).
void SharedPacker::find_free_owners(size_t position) {
  ++stamp_;
  free_owners_.clear();
  const size_t step = value(position).producer;
  const size_t device = value(position).device;
  const ArenaLayout& arena = layouts_[device];
  const size_t prefix = order_.ordered_prefix(step);
  const size_t prefix_end = first_of_step_[prefix];
  const auto& owners = arena.owners();
  auto owner = owners.begin();
  for (; owner != owners.end() && owner->first < prefix_end; ++owner) {
    consider_owner(owner->first, step);
  }
  const size_t ancestors = order_.count_ancestors(step, prefix);
  candidates_.clear();
  for (; owner != owners.end() && owner->first < first_of_step_[step]; ++owner) {
    if (candidates_.size() == ancestors) {
      order_.for_each_ancestor(step, prefix, [&](size_t ancestor) {
        for (size_t q = first_of_step_[ancestor]; q < first_of_step_[ancestor + 1]; ++q) {
          if (value(q).device == device && arena.owns(q)) consider_owner(q, step);
        }
      });
      return;
    }
    candidates_.push_back(owner->first);
  }
  for (const size_t candidate : candidates_) consider_owner(candidate, step);
}

// The smallest free range that fits, where free means: a hole, a fragment of a free owner, or
// what lies above the top up to the arena's size; ranges next to each other join. If none fits,
// the lowest start from which the rest is free, growing the arena.
uint64_t SharedPacker::choose_offset(size_t position) {
  find_free_owners(position);
  const uint64_t bytes = size(position);
  ArenaLayout& arena = layout(position);
  const ArenaLayout::Fragments& fragments = arena.fragments();
  free_starts_.clear();
  for (const size_t owner : free_owners_) {
    const uint64_t end = offsets_[owner] + size(owner);
    for (auto fragment = fragments.lower_bound(offsets_[owner]);
         fragment != fragments.end() && fragment->first < end; ++fragment) {
      if (fragment->second.owner == owner) free_starts_.push_back(fragment->first);
    }
  }
  std::sort(free_starts_.begin(), free_starts_.end());

  std::optional<Gap> best;
  const auto consider = [&](uint64_t start, uint64_t free_bytes) {
    if (free_bytes < bytes) return;
    if (!best || free_bytes < best->bytes || (free_bytes == best->bytes && start < best->start)) {
      best = Gap{start, free_bytes};
    }
  };
  const auto is_free = [&](const ArenaLayout::Fragments::const_iterator& fragment) {
    return free_stamp_[fragment->second.owner] == stamp_;
  };
  uint64_t top_start = arena.top();
  uint64_t covered_until = 0;
  for (const uint64_t start : free_starts_) {
    if (start < covered_until) continue;
    const auto fragment = fragments.find(start);
    uint64_t run_start = 0;
    for (auto left = fragment; left != fragments.begin();) {
      --left;
      if (!is_free(left)) {
        run_start = left->second.end;
        break;
      }
    }
    uint64_t run_end = kUnbounded;
    for (auto right = std::next(fragment); right != fragments.end(); ++right) {
      if (!is_free(right)) {
        run_end = right->first;
        break;
      }
    }
    if (run_end == kUnbounded) {
      top_start = run_start;
    } else {
      consider(run_start, run_end - run_start);
    }
    covered_until = run_end;
  }
  if (const auto hole = arena.smallest_hole(bytes)) consider(hole->start, hole->bytes);
  consider(top_start, arena.high_water() - top_start);
  return best ? best->start : top_start;
}

}  // namespace

std::vector<uint64_t> pack_shared_values(size_t num_steps, const StepOrder& order,
                                         const std::vector<PlanValue>& values,
                                         const std::vector<uint64_t>& sizes, size_t num_devices,
                                         std::vector<uint64_t>& offsets) {
  SharedPacker packer(num_steps, order, values, sizes, num_devices);
  packer.pack_all(offsets);
  return packer.arena_bytes();
}

}  // namespace hxrt::detail
