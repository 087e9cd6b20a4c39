#include "graph/compile/arena_layout.hpp"

#include <algorithm>
#include <iterator>

namespace hxrt::detail {

std::optional<ArenaLayout::Hole> ArenaLayout::smallest_hole(uint64_t bytes) const {
  const auto found = holes_by_size_.lower_bound({bytes, 0});
  if (found == holes_by_size_.end()) return std::nullopt;
  return Hole{found->second, found->first};
}

void ArenaLayout::occupy(uint64_t start, uint64_t end, size_t owner) {
  auto fragment = fragments_.lower_bound(start);
  if (fragment != fragments_.begin() && std::prev(fragment)->second.end > start) --fragment;
  while (fragment != fragments_.end() && fragment->first < end) {
    const uint64_t cut_start = fragment->first;
    const Fragment cut = fragment->second;
    fragment = erase_fragment(fragment);
    if (cut_start < start) add_fragment(cut_start, start, cut.owner);
    if (cut.end > end) add_fragment(end, cut.end, cut.owner);
  }
  add_fragment(start, end, owner);
  refresh_holes(start, end);
  high_water_ = std::max(high_water_, end);
}

void ArenaLayout::release(uint64_t start, uint64_t end, size_t owner) {
  for (auto fragment = fragments_.lower_bound(start);
       fragment != fragments_.end() && fragment->first < end;) {
    fragment = fragment->second.owner == owner ? erase_fragment(fragment) : std::next(fragment);
  }
  refresh_holes(start, end);
}

void ArenaLayout::hand_over(uint64_t start, uint64_t end, size_t owner, size_t heir) {
  for (auto fragment = fragments_.lower_bound(start);
       fragment != fragments_.end() && fragment->first < end;) {
    if (fragment->second.owner != owner) {
      ++fragment;
      continue;
    }
    const uint64_t kept_start = fragment->first;
    const uint64_t kept_end = fragment->second.end;
    fragment = erase_fragment(fragment);
    add_fragment(kept_start, kept_end, heir);
  }
}

void ArenaLayout::add_fragment(uint64_t start, uint64_t end, size_t owner) {
  fragments_.emplace(start, Fragment{end, owner});
  ++fragments_per_owner_[owner];
}

ArenaLayout::Fragments::iterator ArenaLayout::erase_fragment(Fragments::iterator fragment) {
  const auto count = fragments_per_owner_.find(fragment->second.owner);
  if (--count->second == 0) fragments_per_owner_.erase(count);
  return fragments_.erase(fragment);
}

void ArenaLayout::refresh_holes(uint64_t start, uint64_t end) {
  // From the last fragment that starts below `start` (unchanged but for its end) to the first
  // that starts at or above `end` (unchanged): the holes between them are recomputed; those
  // above the top, if no fragment lies beyond, are gone.
  auto first = fragments_.lower_bound(start);
  const bool has_before = first != fragments_.begin();
  if (has_before) --first;
  const auto last = fragments_.lower_bound(end);
  const uint64_t stale_from = has_before ? first->first : 0;
  const auto stale_end =
      last == fragments_.end() ? hole_ends_.end() : hole_ends_.lower_bound(last->first);
  for (auto hole = hole_ends_.lower_bound(stale_from); hole != stale_end;) {
    holes_by_size_.erase({hole->second - hole->first, hole->first});
    hole = hole_ends_.erase(hole);
  }
  uint64_t covered = 0;
  auto fragment = fragments_.begin();
  if (has_before) {
    covered = first->second.end;
    fragment = std::next(first);
  }
  const auto stop = last == fragments_.end() ? last : std::next(last);
  for (; fragment != stop; ++fragment) {
    if (fragment->first > covered) add_hole(covered, fragment->first);
    covered = fragment->second.end;
  }
}

void ArenaLayout::add_hole(uint64_t start, uint64_t end) {
  hole_ends_.emplace(start, end);
  holes_by_size_.emplace(end - start, start);
}

}  // namespace hxrt::detail
