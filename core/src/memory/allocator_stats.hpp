// What one device allocator reports about its memory: the figures of hxrt-info and of every
// out-of-memory message.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace hxrt::detail {

struct AllocatorStats {
  size_t bytes_in_use = 0;       // held by live allocations, rounded to the allocator's granularity
  size_t peak_bytes_in_use = 0;  // the most bytes_in_use has been
  size_t bytes_reserved = 0;     // taken from the device, in use or cached
  size_t bytes_limit = 0;        // the most the allocator may take from the device
  size_t allocation_count = 0;   // live allocations
  uint64_t total_allocations = 0;
  size_t largest_free_block = 0;  // the largest request served without taking more memory
  // 1 - largest_free_block / free bytes (reserved - in use); 0 when nothing is free. Near 1,
  // the free memory is scattered in pieces too small for large requests.
  double fragmentation = 0;
};

// "1536 B", "2.00 MiB", "1.50 GiB": byte counts as people read them.
std::string format_bytes(size_t bytes);

// "in use 1.00 MiB, peak 2.00 MiB, reserved 4.00 MiB, limit 8.00 MiB, largest free block
// 3.00 MiB"; a limit of SIZE_MAX reads "limit none".
std::string describe(const AllocatorStats& stats);

}  // namespace hxrt::detail
