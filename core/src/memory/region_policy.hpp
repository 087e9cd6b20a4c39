// How the BFC allocator sizes the regions it takes from the device, and which free chunks a
// request may take. What fragments a best-fit heap under tensors of many sizes and lifetimes
// is a large free chunk cut for a small request: it stays cut while the small block lives,
// and the next large request needs new memory. So requests come in two classes, each with
// its own regions and its own pool of free chunks (memory/chunk_table.hpp):
// - small requests (under kLargeRequestBytes) share growth regions: the first is
//   first_region_bytes, each later one a quarter of what growth regions already hold (within
//   first_region_bytes and max_growth_region_bytes). TensorFlow doubles instead, so its
//   newest region can leave half of what it reserved unused; a quarter leaves at most a
//   fifth;
// - a large request takes a free chunk only when it fits closely (at most a quarter larger,
//   in kRegionGranuleBytes steps), else a fitted region of its own: its size rounded up to
//   kRegionGranuleBytes. Emptied, a fitted region stays for a later large request of about
//   its size: the same shapes recur every step of a training loop.
// Before growing, empty regions are given back, largest first, while the allocator would
// otherwise hold more than 1/8 beyond what is in use. Only when growth is refused (the limit,
// or the device) does a request take any free chunk that fits, from either pool, so that no
// request fails while a free chunk could serve it.
//
// Measured on the mixed workload of the tests and of hxrt_bench (10,000 requests, 256 B to
// 64 MiB, log-uniform, random lifetimes): peak reserved / peak in use 1.105 (1.06 to 1.11
// over seeds 7 to 16), against 1.31 (1.24 to 1.46) with TensorFlow-like doubling regions.
// The price is paid in device calls on workloads whose large sizes never repeat: there, most
// large requests take a region of their own (145 device allocations per 1,000 requests of
// that workload, against 10 in all).
#pragma once

#include <algorithm>
#include <cstddef>

namespace hxrt::detail::region_policy {

constexpr size_t kLargeRequestBytes = size_t{8} << 20;
constexpr size_t kRegionGranuleBytes = size_t{2} << 20;

inline bool is_large(size_t bytes) { return bytes >= kLargeRequestBytes; }

// The size of a fitted region for a large request of `bytes` (at most BfcAllocator::kMaxBytes,
// which the result may pass by less than a granule: the allocator clamps it).
inline size_t fitted_region_bytes(size_t bytes) {
  return (bytes + kRegionGranuleBytes - 1) / kRegionGranuleBytes * kRegionGranuleBytes;
}

// The largest free chunk that a large request of `bytes` takes while growth is possible.
inline size_t close_fit_limit(size_t bytes) { return fitted_region_bytes(bytes + bytes / 4); }

// Whether `reserved` bytes with `in_use` of them in use hold too much free memory to grow
// further without first giving back what is empty.
inline bool under_pressure(size_t reserved, size_t in_use) {
  return reserved - in_use > in_use / 8;
}

// The size of a new growth region for a request of `bytes`, while growth regions hold
// `growth_reserved` bytes: the first is `first`, a later one a quarter of what they hold, at
// least `first` and at most `max_growth`, and never below the request.
inline size_t growth_region_bytes(size_t growth_reserved, size_t first, size_t max_growth,
                                  size_t bytes) {
  if (growth_reserved == 0) return std::max(first, bytes);
  const size_t quarter = growth_reserved / 4 / kRegionGranuleBytes * kRegionGranuleBytes;
  return std::max(std::min(std::max(quarter, first), max_growth), bytes);
}

}  // namespace hxrt::detail::region_policy
