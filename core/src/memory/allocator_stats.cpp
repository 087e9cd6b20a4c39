#include "memory/allocator_stats.hpp"

#include <cstdint>
#include <cstdio>

namespace hxrt::detail {

std::string format_bytes(size_t bytes) {
  static const char* const kUnits[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (bytes < 1024) return std::to_string(bytes) + " B";
  double value = static_cast<double>(bytes) / 1024;
  size_t unit = 0;
  while (value >= 1024 && unit + 1 < sizeof kUnits / sizeof kUnits[0]) {
    value /= 1024;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.2f %s", value, kUnits[unit]);
  return text;
}

std::string describe(const AllocatorStats& stats) {
  return "in use " + format_bytes(stats.bytes_in_use) +
         ", peak " + format_bytes(stats.peak_bytes_in_use) +
         ", reserved " + format_bytes(stats.bytes_reserved) +
         ", limit " + (stats.bytes_limit == SIZE_MAX ? "none" : format_bytes(stats.bytes_limit)) +
         ", largest free block " + format_bytes(stats.largest_free_block);
}

}  // namespace hxrt::detail
