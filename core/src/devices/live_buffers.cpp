#include "devices/live_buffers.hpp"

#include <cstdio>

namespace hxrt::detail {
namespace {

std::string hex(uintptr_t value) {
  char text[32];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
  return text;
}

}  // namespace

std::string LiveBuffers::add(const void* buffer, size_t bytes) {
  const auto start = reinterpret_cast<uintptr_t>(buffer);
  std::lock_guard<std::mutex> lock(mutex_);
  auto next = live_.lower_bound(start);
  if (next != live_.end() && next->first == start) {
    return "buffer " + hex(start) + " is already live (" + std::to_string(next->second) +
           " bytes, not yet deallocated)";
  }
  if (addresses_) {
    // Host addresses: the live buffer just below must end before this one starts, and the
    // one just above must start after this one ends.
    if (next != live_.begin()) {
      const auto below = std::prev(next);
      if (start - below->first < below->second) {
        return "buffer " + hex(start) + " of " + std::to_string(bytes) +
               " bytes overlaps the live buffer " + hex(below->first) + " of " +
               std::to_string(below->second) + " bytes";
      }
    }
    if (next != live_.end() && next->first - start < bytes) {
      return "buffer " + hex(start) + " of " + std::to_string(bytes) +
             " bytes overlaps the live buffer " + hex(next->first) + " of " +
             std::to_string(next->second) + " bytes";
    }
  }
  live_.emplace_hint(next, start, bytes);
  return {};
}

void LiveBuffers::remove(const void* buffer) {
  std::lock_guard<std::mutex> lock(mutex_);
  live_.erase(reinterpret_cast<uintptr_t>(buffer));
}

}  // namespace hxrt::detail
