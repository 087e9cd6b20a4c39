#include "dnnl/constant_layouts.hpp"

#include <mutex>
#include <new>
#include <utility>

namespace hxcpu {
namespace {

// oneDNN's kernels load whole cache lines of their weights.
constexpr size_t kAlignment = 64;

}  // namespace

void* ConstantLayouts::find_or_make(uint64_t id, const dnnl::memory::desc& layout,
                                    const std::function<void(void*)>& make) {
  const auto find = [&]() -> void* {
    const auto found = kept_.find(id);
    if (found == kept_.end()) return nullptr;
    for (const Kept& kept : found->second) {
      if (kept.layout == layout) return kept.data.get();
    }
    return nullptr;
  };
  {
    const std::shared_lock<std::shared_mutex> reading(mutex_);
    if (void* data = find()) return data;
  }
  const std::unique_lock<std::shared_mutex> writing(mutex_);
  if (void* data = find()) return data;  // another thread made it meanwhile
  const size_t bytes = layout.get_size();
  const size_t rounded = (bytes + kAlignment - 1) / kAlignment * kAlignment;
  std::unique_ptr<void, Free> data(std::aligned_alloc(kAlignment, rounded == 0 ? kAlignment
                                                                               : rounded));
  if (!data) throw std::bad_alloc();
  make(data.get());
  std::vector<Kept>& layouts = kept_[id];
  layouts.push_back({layout, std::move(data)});
  return layouts.back().data.get();
}

void ConstantLayouts::forget(const uint64_t* ids, size_t count) {
  const std::unique_lock<std::shared_mutex> writing(mutex_);
  for (size_t i = 0; i < count; ++i) kept_.erase(ids[i]);
}

}  // namespace hxcpu
