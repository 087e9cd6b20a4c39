#include "graph/compile/size_order_packing.hpp"

#include <algorithm>
#include <numeric>
#include <utility>

namespace hxrt::detail {

std::vector<uint64_t> pack_by_size(const StepOrder& order, const std::vector<PlanValue>& values,
                                   const std::vector<uint64_t>& sizes, size_t num_devices,
                                   std::vector<uint64_t>& offsets) {
  std::vector<size_t> by_size;
  for (size_t index = 0; index < values.size(); ++index) {
    if (values[index].shareable) by_size.push_back(index);
  }
  // Largest first; of one size, the longest-lived (in step order) first, which then lie
  // below the short-lived that come and go around them: the tests' transformer packed 448 KiB
  // so, 512 KiB by size alone, where at most 384 KiB are live at once.
  const auto span = [&](size_t index) {
    size_t last = values[index].producer;
    for (size_t reader : values[index].readers) last = std::max(last, reader);
    return last - values[index].producer;
  };
  std::stable_sort(by_size.begin(), by_size.end(), [&](size_t a, size_t b) {
    if (sizes[a] != sizes[b]) return sizes[a] > sizes[b];
    return span(a) > span(b);
  });
  std::vector<uint64_t> arena(num_devices, 0);
  std::vector<size_t> placed;
  std::vector<std::pair<uint64_t, uint64_t>> taken;  // [start, end) of the conflicting ones
  for (size_t index : by_size) {
    const PlanValue& value = values[index];
    taken.clear();
    for (size_t other : placed) {
      if (values[other].device != value.device || may_share(order, value, values[other])) {
        continue;
      }
      taken.emplace_back(offsets[other], offsets[other] + sizes[other]);
    }
    std::sort(taken.begin(), taken.end());
    uint64_t offset = 0;
    for (const auto& [start, end] : taken) {
      if (start >= offset + sizes[index]) break;  // the gap below `start` holds it
      offset = std::max(offset, end);
    }
    offsets[index] = offset;
    arena[value.device] = std::max(arena[value.device], offset + sizes[index]);
    placed.push_back(index);
  }
  return arena;
}

}  // namespace hxrt::detail
