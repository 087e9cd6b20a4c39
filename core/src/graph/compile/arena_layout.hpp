// One device's arena while the memory planner fills it: which value owns each byte range now,
// and the holes between those ranges that no value owns.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <utility>

namespace hxrt::detail {

// A value placed over ranges of others takes them over: a later value that may overlap it may
// also overlap what it took over (the planner's rule is transitive), so only the latest owner of
// a byte matters. Ranges no value owns (below the top) are holes, free for any value.
class ArenaLayout {
 public:
  struct Fragment {
    uint64_t end;
    size_t owner;
  };
  using Fragments = std::map<uint64_t, Fragment>;  // by start; disjoint

  struct Hole {
    uint64_t start;
    uint64_t bytes;
  };

  const Fragments& fragments() const { return fragments_; }
  bool owns(size_t owner) const { return fragments_per_owner_.count(owner) != 0; }
  // The owners of at least one fragment, in increasing order, each with how many it owns.
  const std::map<size_t, size_t>& owners() const { return fragments_per_owner_; }
  // The end of the highest fragment: everything above it is free.
  uint64_t top() const { return fragments_.empty() ? 0 : fragments_.rbegin()->second.end; }
  // The arena's size so far: the highest end any fragment has had.
  uint64_t high_water() const { return high_water_; }
  // The smallest hole of at least `bytes`, the lowest of those of that size.
  std::optional<Hole> smallest_hole(uint64_t bytes) const;

  // `owner` takes [start, end), cutting away what other fragments had there.
  void occupy(uint64_t start, uint64_t end, size_t owner);
  // What `owner` still holds within [start, end) becomes free.
  void release(uint64_t start, uint64_t end, size_t owner);
  // What `owner` still holds within [start, end) passes to `heir`.
  void hand_over(uint64_t start, uint64_t end, size_t owner, size_t heir);

 private:
  void add_fragment(uint64_t start, uint64_t end, size_t owner);
  Fragments::iterator erase_fragment(Fragments::iterator fragment);
  // Recomputes the holes next to fragments that changed within [start, end).
  void refresh_holes(uint64_t start, uint64_t end);
  void add_hole(uint64_t start, uint64_t end);

  Fragments fragments_;
  std::map<size_t, size_t> fragments_per_owner_;
  std::map<uint64_t, uint64_t> hole_ends_;                 // by start
  std::set<std::pair<uint64_t, uint64_t>> holes_by_size_;  // (bytes, start)
  uint64_t high_water_ = 0;
};

}  // namespace hxrt::detail
