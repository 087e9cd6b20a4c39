#include "memory/allocator_stats.hpp"

#include <cstdint>
#include <cstdio>

namespace hxrt::detail {

std::string describe(const AllocatorStats& stats) {
  return "in use " + format_bytes(stats.bytes_in_use) +
         ", peak " + format_bytes(stats.peak_bytes_in_use) +
         ", reserved " + format_bytes(stats.bytes_reserved) +
         ", limit " + (stats.bytes_limit == SIZE_MAX ? "none" : format_bytes(stats.bytes_limit)) +
         ", largest free block " + format_bytes(stats.largest_free_block);
}

}  // namespace hxrt::detail
