// Packing by search, after the greedy packings (shared_arena_packing.hpp,
// size_order_packing.hpp) where they left a device's arena above the most its values have
// live at once. Greedy packing fragments: the tests' transformer packed 448 KiB where at most
// 384 KiB are live at once (its attention's 128 KiB tensors follow one another, each read as
// the next is written, and must alternate between two slots). A depth-first search over the
// offsets, the values in production order, each at the bottom or on top of a value it
// overlaps (any packing can be pushed down until each value rests so), found a 384 KiB packing
// in about a hundred steps. Bounded: after kMostSearchWork in each of its orders it gives up,
// and the greedy packing stands.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "graph/compile/memory_plan.hpp"
#include "graph/compile/step_order.hpp"

namespace hxrt::detail {

// The most values a search considers (the conflicts between them are listed first, a check
// and a byte per pair), and the most checks of an offset against a placed value it makes in
// each order (a few milliseconds; the transformer's packing took some 4,000).
inline constexpr size_t kMostValuesSearched = 1024;
inline constexpr size_t kMostSearchWork = 2000000;

// Packs the shareable values of `device` (sizes aligned, in `sizes`) within `height` bytes,
// writing their `offsets`: true when it found a packing, false (offsets unchanged) when none
// exists or the search ran out of steps.
bool pack_within(const StepOrder& order, const std::vector<PlanValue>& values,
                 const std::vector<uint64_t>& sizes, size_t device, uint64_t height,
                 std::vector<uint64_t>& offsets);

}  // namespace hxrt::detail
