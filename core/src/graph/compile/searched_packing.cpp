#include "graph/compile/searched_packing.hpp"

#include <algorithm>
#include <functional>

namespace hxrt::detail {
namespace {

class Search {
 public:
  Search(const std::vector<uint64_t>& sizes, std::vector<size_t> chosen,
         std::vector<std::vector<size_t>> conflicts, uint64_t height)
      : sizes_(sizes),
        chosen_(std::move(chosen)),
        conflicts_(std::move(conflicts)),
        height_(height),
        offsets_(chosen_.size(), 0) {}

  bool place(size_t k) {
    if (k == chosen_.size()) return true;
    const uint64_t size = sizes_[chosen_[k]];
    std::vector<uint64_t> candidates = {0};
    for (size_t other : conflicts_[k]) {
      candidates.push_back(offsets_[other] + sizes_[chosen_[other]]);
    }
    std::sort(candidates.begin(), candidates.end());
    candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
    for (uint64_t at : candidates) {
      if (at + size > height_) break;
      work_ += conflicts_[k].size() + 1;
      if (work_ > kMostSearchWork) return false;
      const bool free = std::none_of(conflicts_[k].begin(), conflicts_[k].end(), [&](size_t o) {
        return at < offsets_[o] + sizes_[chosen_[o]] && offsets_[o] < at + size;
      });
      if (!free) continue;
      offsets_[k] = at;
      if (place(k + 1)) return true;
      if (work_ > kMostSearchWork) return false;
    }
    return false;
  }

  uint64_t offset(size_t k) const { return offsets_[k]; }

 private:
  const std::vector<uint64_t>& sizes_;
  const std::vector<size_t> chosen_;  // value indices, in production order
  // Per position in chosen_: the earlier positions whose values it may not overlap.
  const std::vector<std::vector<size_t>> conflicts_;
  const uint64_t height_;
  std::vector<uint64_t> offsets_;  // per position
  size_t work_ = 0;  // overlap checks made
};

}  // namespace

bool pack_within(const StepOrder& order, const std::vector<PlanValue>& values,
                 const std::vector<uint64_t>& sizes, size_t device, uint64_t height,
                 std::vector<uint64_t>& offsets) {
  std::vector<size_t> chosen;
  for (size_t index = 0; index < values.size(); ++index) {
    if (values[index].device == device && values[index].shareable) chosen.push_back(index);
  }
  const size_t count = chosen.size();
  if (count > kMostValuesSearched) return false;
  // Which pairs may not overlap, by position in `chosen`.
  std::vector<char> apart(count * count, 0);
  for (size_t a = 0; a < count; ++a) {
    for (size_t b = 0; b < a; ++b) {
      const PlanValue& first = values[chosen[a]];
      const PlanValue& second = values[chosen[b]];
      apart[a * count + b] = apart[b * count + a] = !may_share(order, first, second);
    }
  }
  const auto last_use = [&](size_t index) {
    size_t last = values[index].producer;
    for (size_t reader : values[index].readers) last = std::max(last, reader);
    return last;
  };
  // A value rests on one placed before it in the search's order, so an order can miss every
  // packing of the height; three orders, each with its own budget: production, the last to
  // die first, the largest first.
  const std::vector<std::function<bool(size_t, size_t)>> orders = {
      [&](size_t a, size_t b) { return values[a].producer < values[b].producer; },
      [&](size_t a, size_t b) { return last_use(a) > last_use(b); },
      [&](size_t a, size_t b) { return sizes[a] > sizes[b]; },
  };
  std::vector<size_t> position(values.size(), 0);
  for (size_t k = 0; k < count; ++k) position[chosen[k]] = k;
  for (const auto& before : orders) {
    std::vector<size_t> ordered = chosen;
    std::stable_sort(ordered.begin(), ordered.end(), before);
    std::vector<std::vector<size_t>> conflicts(count);
    for (size_t k = 0; k < count; ++k) {
      for (size_t earlier = 0; earlier < k; ++earlier) {
        if (apart[position[ordered[k]] * count + position[ordered[earlier]]]) {
          conflicts[k].push_back(earlier);
        }
      }
    }
    Search search(sizes, ordered, std::move(conflicts), height);
    if (!search.place(0)) continue;
    for (size_t k = 0; k < count; ++k) offsets[ordered[k]] = search.offset(k);
    return true;
  }
  return false;
}

}  // namespace hxrt::detail
