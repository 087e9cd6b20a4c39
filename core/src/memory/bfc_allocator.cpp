#include "memory/bfc_allocator.hpp"

#include <algorithm>
#include <cstdio>
#include <mutex>
#include <utility>

#include "hxrt/error.hpp"

namespace hxrt::detail {
namespace {

constexpr size_t kAlignment = BfcAllocator::kAlignment;
// Larger requests are refused before any arithmetic on them can overflow; no device has
// half of the address space.
constexpr size_t kMaxRequest = SIZE_MAX / 2;
constexpr size_t kMaxRegion = kMaxRequest & ~(kAlignment - 1);

size_t round_up(size_t bytes) { return (bytes + kAlignment - 1) & ~(kAlignment - 1); }

// A size from the options as a region can have it: a non-zero multiple of kAlignment.
size_t region_size(size_t bytes) {
  return std::clamp(round_up(std::min(bytes, kMaxRegion)), kAlignment, kMaxRegion);
}

std::string address_text(const void* ptr) {
  char text[32];
  std::snprintf(text, sizeof text, "%p", ptr);
  return text;
}

}  // namespace

BfcAllocator::BfcAllocator(std::string device_name, RawMemory raw, BfcOptions options)
    : device_name_(std::move(device_name)),
      raw_(std::move(raw)),
      options_(options),
      next_region_bytes_(region_size(options.first_region_bytes)),
      max_growth_region_bytes_(region_size(options.max_growth_region_bytes)) {}

BfcAllocator::~BfcAllocator() {
  for (const Region& region : regions_) raw_.deallocate(region.base, region.size);
}

void* BfcAllocator::allocate(size_t bytes) {
  std::lock_guard<SpinLock> lock(mutex_);
  if (bytes > kMaxRequest) throw_out_of_memory(bytes, "no device memory is that large");
  const size_t rounded = bytes == 0 ? kAlignment : round_up(bytes);
  // What may allocate on the host comes first, so that a failure leaves the bookkeeping as
  // it was: a record for a new region, one for the cut, a slot for the address.
  chunks_.reserve(2);
  live_.reserve_one_more();
  int32_t chunk = chunks_.best_fit(rounded);
  if (chunk == kNone) {
    std::string why_not;
    chunk = grow(rounded, why_not);
    if (chunk == kNone) throw_out_of_memory(bytes, why_not);
  }
  chunk = chunks_.take(chunk, rounded);
  char* ptr = chunks_[chunk].ptr;
  live_.insert(ptr, chunk);
  bytes_in_use_ += rounded;
  peak_bytes_in_use_ = std::max(peak_bytes_in_use_, bytes_in_use_);
  ++total_allocations_;
  return ptr;
}

void BfcAllocator::deallocate(void* ptr) {
  if (ptr == nullptr) return;
  std::lock_guard<SpinLock> lock(mutex_);
  const int32_t chunk = live_.erase(ptr);
  if (chunk == PointerTable::kAbsent) {
    throw Error(StatusCode::kInvalidArgument,
                "Cannot free " + address_text(ptr) + " on " + device_name_ +
                    ": it is not a live allocation of this device's allocator (freed twice, or "
                    "allocated elsewhere).");
  }
  bytes_in_use_ -= chunks_[chunk].size;
  const int32_t merged = chunks_.release(chunk);
  if (options_.release_unused && chunks_[merged].prev == kNone && chunks_[merged].next == kNone) {
    for (size_t i = 0; i < regions_.size(); ++i) {
      if (regions_[i].first_chunk == merged) {
        release_region(i);
        break;
      }
    }
  }
}

size_t BfcAllocator::release_unused_regions() {
  std::lock_guard<SpinLock> lock(mutex_);
  return release_empty_regions();
}

AllocatorStats BfcAllocator::stats() const {
  std::lock_guard<SpinLock> lock(mutex_);
  return stats_locked();
}

int32_t BfcAllocator::grow(size_t bytes, std::string& why_not) {
  const int32_t chunk = add_region(bytes, why_not);
  if (chunk != kNone || release_empty_regions() == 0) return chunk;
  return add_region(bytes, why_not);
}

int32_t BfcAllocator::add_region(size_t bytes, std::string& why_not) {
  const size_t available = (options_.limit_bytes - bytes_reserved_) & ~(kAlignment - 1);
  if (bytes > available) {
    why_not = "a new region would pass the memory limit";
    return kNone;
  }
  size_t region_bytes = std::min(std::max(next_region_bytes_, bytes), available);
  regions_.reserve(regions_.size() + 1);
  void* memory = nullptr;
  for (;;) {
    try {
      memory = raw_.allocate(region_bytes);
      if (memory == nullptr) {
        why_not = "the device returned no memory for a region of " + format_bytes(region_bytes);
      }
    } catch (const Error& error) {
      if (error.code() != StatusCode::kOutOfMemory) throw;
      why_not = "the device could not supply a region of " + format_bytes(region_bytes) + " (" +
                error.what() + ")";
    }
    if (memory != nullptr) break;
    // The doubled size may be what the device lacks; the request alone may still fit.
    if (region_bytes == bytes) return kNone;
    region_bytes = bytes;
  }
  if (reinterpret_cast<uintptr_t>(memory) % kAlignment != 0) {
    raw_.deallocate(memory, region_bytes);
    throw Error(StatusCode::kInternal,
                "The device " + device_name_ + " returned memory at " + address_text(memory) +
                    ", which is not aligned to " + std::to_string(kAlignment) + " bytes.");
  }
  const int32_t chunk = chunks_.add_region(static_cast<char*>(memory), region_bytes);
  regions_.push_back(Region{static_cast<char*>(memory), region_bytes, chunk});
  bytes_reserved_ += region_bytes;
  next_region_bytes_ = std::min(region_bytes, max_growth_region_bytes_ / 2) * 2;
  return chunk;
}

size_t BfcAllocator::release_empty_regions() {
  size_t released = 0;
  for (size_t i = regions_.size(); i-- > 0;) {
    const Region& region = regions_[i];
    const Chunk& first = chunks_[region.first_chunk];
    if (first.is_free() && first.size == region.size) {
      released += region.size;
      release_region(i);
    }
  }
  return released;
}

void BfcAllocator::release_region(size_t region_index) {
  const Region region = regions_[region_index];
  chunks_.remove_region(region.first_chunk);
  regions_[region_index] = regions_.back();
  regions_.pop_back();
  bytes_reserved_ -= region.size;
  raw_.deallocate(region.base, region.size);
}

AllocatorStats BfcAllocator::stats_locked() const {
  AllocatorStats stats;
  stats.bytes_in_use = bytes_in_use_;
  stats.peak_bytes_in_use = peak_bytes_in_use_;
  stats.bytes_reserved = bytes_reserved_;
  stats.bytes_limit = options_.limit_bytes;
  stats.allocation_count = live_.size();
  stats.total_allocations = total_allocations_;
  stats.largest_free_block = chunks_.largest_free_block();
  const size_t free_bytes = bytes_reserved_ - bytes_in_use_;
  if (free_bytes > 0) {
    stats.fragmentation =
        1.0 - static_cast<double>(stats.largest_free_block) / static_cast<double>(free_bytes);
  }
  return stats;
}

void BfcAllocator::throw_out_of_memory(size_t bytes, const std::string& why) const {
  throw Error(StatusCode::kOutOfMemory,
              "Out of memory on " + device_name_ + ": cannot allocate " + std::to_string(bytes) +
                  " bytes (" + format_bytes(bytes) + "): " + why + ". Allocator: " +
                  describe(stats_locked()) +
                  ". Free tensors that are no longer needed, or raise the device's memory "
                  "limit.");
}

std::string BfcAllocator::check_invariants() const {
  std::lock_guard<SpinLock> lock(mutex_);
  size_t free_chunks = 0;
  size_t linked = 0;
  std::string fault = check_regions(free_chunks, linked);
  if (fault.empty()) fault = chunks_.check(free_chunks, linked);
  return fault;
}

std::string BfcAllocator::check_regions(size_t& free_chunks, size_t& linked) const {
  const auto at = [](int32_t chunk) { return "chunk " + std::to_string(chunk); };
  size_t reserved = 0, in_use = 0, live = 0;
  for (const Region& region : regions_) {
    reserved += region.size;
    const char* expected = region.base;
    int32_t prev = kNone;
    bool prev_free = false;
    for (int32_t chunk = region.first_chunk; chunk != kNone; chunk = chunks_[chunk].next) {
      if (chunk < 0 || static_cast<size_t>(chunk) >= chunks_.record_count() ||
          ++linked > chunks_.record_count()) {
        return "region " + address_text(region.base) + ": a broken or cyclic chunk chain";
      }
      const Chunk& c = chunks_[chunk];
      if (c.bin == Chunk::kUnusedRecord) return at(chunk) + " is an unused record but linked";
      if (c.prev != prev) return at(chunk) + ": prev link broken";
      if (c.ptr != expected) return at(chunk) + ": not where the previous one ends";
      if (c.size == 0 || c.size % kAlignment != 0) return at(chunk) + ": bad size";
      if (static_cast<size_t>(c.ptr + c.size - region.base) > region.size) {
        return at(chunk) + ": runs past the end of its region";
      }
      const bool free = c.is_free();
      if (free && prev_free) return at(chunk) + ": free, next to a free chunk (not merged)";
      if (free) {
        ++free_chunks;
        if (c.bin != SizeBins::bin_of(c.size)) return at(chunk) + ": free in the wrong bin";
      } else {
        ++live;
        in_use += c.size;
        if (live_.find(c.ptr) != chunk) return at(chunk) + ": live but not in the address table";
      }
      expected = c.ptr + c.size;
      prev = chunk;
      prev_free = free;
    }
    if (expected != region.base + region.size) {
      return "region " + address_text(region.base) + ": its chunks do not cover it";
    }
  }
  if (reserved != bytes_reserved_) return "bytes_reserved disagrees with the regions";
  if (reserved > options_.limit_bytes) return "bytes_reserved passes the limit";
  if (in_use != bytes_in_use_) return "bytes_in_use disagrees with the chunks";
  if (peak_bytes_in_use_ < in_use) return "peak_bytes_in_use is below bytes_in_use";
  if (live != live_.size()) return "the address table holds chunks that are not live";
  return "";
}

}  // namespace hxrt::detail
