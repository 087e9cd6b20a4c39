// BfcAllocator: where memory comes from and where it goes back, by the region policy
// (memory/region_policy.hpp): growing, and giving back empty regions.
#include <algorithm>

#include "hxrt/error.hpp"
#include "memory/bfc_allocator.hpp"
#include "memory/region_policy.hpp"

namespace hxrt::detail {

namespace policy = region_policy;

// Growth refused: the request's own pool first, then the other.
int32_t BfcAllocator::find_any_chunk(size_t bytes) const {
  const int own = policy::is_large(bytes) ? kFittedPool : kGrowthPool;
  const int32_t chunk = chunks_.best_fit(bytes, own);
  return chunk != kNone ? chunk : chunks_.best_fit(bytes, 1 - own);
}

int32_t BfcAllocator::grow(size_t bytes, std::string& why_not) {
  const bool large = policy::is_large(bytes);
  const RegionKind kind = large ? RegionKind::kFitted : RegionKind::kGrowth;
  const size_t region_bytes =
      large ? policy::fitted_region_bytes(bytes)
            : policy::growth_region_bytes(growth_bytes_reserved(), first_region_bytes_,
                                          max_growth_region_bytes_, bytes);
  release_empty_regions_under_pressure(region_bytes, bytes);
  const int32_t chunk = add_region(region_bytes, bytes, kind, why_not);
  if (chunk != kNone || release_empty_regions() == 0) return chunk;
  return add_region(region_bytes, bytes, kind, why_not);
}

int32_t BfcAllocator::add_region(size_t region_bytes, size_t bytes, RegionKind kind,
                                 std::string& why_not) {
  const size_t alignment = options_.region_alignment;
  const size_t available = (options_.limit_bytes - bytes_reserved_) & ~(alignment - 1);
  const size_t largest = std::min(options_.max_region_bytes, kMaxBytes) & ~(alignment - 1);
  // The device's largest allocation first: a request past it fails under any limit.
  if (bytes > largest) {
    why_not = "the device's largest single allocation is " + format_bytes(largest) +
              " (max_allocation), and one tensor must fit in one";
    return kNone;
  }
  if (bytes > available) {
    why_not = "a new region would pass the memory limit";
    return kNone;
  }
  if (free_slots_.empty() && slots_used_ == kMaxRegions) {
    why_not = "the allocator holds " + std::to_string(kMaxRegions) + " regions, the most it keeps";
    return kNone;
  }
  // A fitted region rounds its request up to a granule, which may pass kMaxBytes; every
  // region's size is a multiple of the alignment.
  region_bytes = std::min({region_bytes, available, largest}) & ~(alignment - 1);
  regions_.reserve(regions_.size() + 1);
  free_slots_.reserve(free_slots_.size() + 1);
  void* buffer = nullptr;
  for (;;) {
    try {
      buffer = raw_.allocate(region_bytes);
      if (buffer == nullptr) {
        why_not = "the device returned no buffer for a region of " + format_bytes(region_bytes);
      }
    } catch (const Error& error) {
      if (error.code() != StatusCode::kOutOfMemory) throw;
      why_not = "the device could not supply a region of " + format_bytes(region_bytes) + " (" +
                error.what() + ")";
    }
    if (buffer != nullptr) break;
    // The larger size may be what the device lacks; the request alone may still fit.
    if (region_bytes == bytes) return kNone;
    region_bytes = bytes;
  }
  uint32_t slot = slots_used_;
  if (!free_slots_.empty()) {
    slot = free_slots_.back();
    free_slots_.pop_back();
  } else {
    ++slots_used_;
  }
  buffers_[slot].store(buffer, std::memory_order_release);
  char* base = reinterpret_cast<char*>((uintptr_t{slot} + 1) << kRegionBits);
  const int32_t chunk = chunks_.add_region(base, region_bytes, pool_of(kind));
  regions_.push_back(Region{base, buffer, slot, region_bytes, chunk, kind});
  bytes_reserved_ += region_bytes;
  return chunk;
}

void BfcAllocator::release_if_empty(int32_t chunk) {
  if (chunks_[chunk].prev != kNone || chunks_[chunk].next != kNone) return;
  for (size_t i = 0; i < regions_.size(); ++i) {
    if (regions_[i].first_chunk == chunk) {
      if (regions_[i].kind != RegionKind::kBudget) release_region(i);
      return;
    }
  }
}

size_t BfcAllocator::growth_bytes_reserved() const {
  size_t bytes = 0;
  for (const Region& region : regions_) {
    if (region.kind == RegionKind::kGrowth) bytes += region.size;
  }
  return bytes;
}

bool BfcAllocator::is_empty(const Region& region) const {
  const Chunk& first = chunks_[region.first_chunk];
  return first.is_free() && first.size == region.size;
}

size_t BfcAllocator::release_empty_regions() {
  size_t released = 0;
  for (size_t i = regions_.size(); i-- > 0;) {
    // The budget stays: it is what the user asked the allocator to hold.
    if (regions_[i].kind != RegionKind::kBudget && is_empty(regions_[i])) {
      released += regions_[i].size;
      release_region(i);
    }
  }
  return released;
}

void BfcAllocator::release_empty_regions_under_pressure(size_t region_bytes, size_t bytes) {
  while (policy::under_pressure(bytes_reserved_ + region_bytes, bytes_in_use_ + bytes)) {
    // The largest empty region first: the most memory for one call to the device.
    size_t largest = regions_.size();
    for (size_t i = 0; i < regions_.size(); ++i) {
      if (regions_[i].kind != RegionKind::kBudget && is_empty(regions_[i]) &&
          (largest == regions_.size() || regions_[i].size > regions_[largest].size)) {
        largest = i;
      }
    }
    if (largest == regions_.size()) return;
    release_region(largest);
  }
}

void BfcAllocator::release_region(size_t region_index) {
  const Region region = regions_[region_index];
  chunks_.remove_region(region.first_chunk);
  regions_[region_index] = regions_.back();
  regions_.pop_back();
  bytes_reserved_ -= region.size;
  buffers_[region.slot].store(nullptr, std::memory_order_relaxed);
  free_slots_.push_back(region.slot);  // room reserved when the region was added
  raw_.deallocate(region.buffer, region.size);
}

}  // namespace hxrt::detail
