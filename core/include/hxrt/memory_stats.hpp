// What one device's allocator reports: Runtime::memory_stats, hxrt-info, and every
// out-of-memory error.
#pragma once

#include <cstddef>
#include <cstdint>

namespace hxrt {

struct MemoryStats {
  size_t bytes_in_use = 0;       // held by live allocations, rounded to the allocator's granularity
  size_t peak_bytes_in_use = 0;  // the most bytes_in_use has been since start or reset_peak_memory
  size_t bytes_reserved = 0;     // taken from the device, in use or cached
  size_t bytes_limit = 0;        // the most the allocator may take from the device; SIZE_MAX: none
  size_t allocation_count = 0;   // live allocations
  uint64_t total_allocations = 0;  // allocations served since start
  size_t largest_free_block = 0;   // the largest request served without taking more memory
  // 1 - largest_free_block / free bytes (reserved - in use); 0 when nothing is free. Near 1,
  // the free memory is scattered in pieces too small for large requests.
  double fragmentation = 0;
};

}  // namespace hxrt
