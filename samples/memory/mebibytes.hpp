// Memory figures in one unit, so that the samples' lines compare at a glance.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

namespace memory_sample {

inline constexpr size_t kMiB = size_t{1} << 20;

// "1.00 MiB", "0.25 MiB"; a limit of SIZE_MAX (MemoryStats' "no limit") reads "none".
inline std::string mebibytes(size_t bytes) {
  if (bytes == SIZE_MAX) return "none";
  char text[32];
  std::snprintf(text, sizeof text, "%.2f MiB", static_cast<double>(bytes) / kMiB);
  return text;
}

}  // namespace memory_sample
