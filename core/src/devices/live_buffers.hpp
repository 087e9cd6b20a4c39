// The buffers a plugin has given for one physical device and not yet taken back, so that a
// plugin that hands out a buffer which is still live (a bug: two tensors would silently share
// memory) is caught when it does. Checked once per allocate call of the plugin, which the
// allocator makes per region of memory, never per tensor.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>

namespace hxrt::detail {

class LiveBuffers {
 public:
  // `addresses`: handles are host addresses (HX_MEMORY_HOST), so a buffer that overlaps a live
  // one is refused too; otherwise handles are opaque, and only the same handle is.
  explicit LiveBuffers(bool addresses) : addresses_(addresses) {}

  // Records `buffer` of `bytes` as live; returns "" or, when it is (or overlaps) a live
  // buffer, what is wrong with it, and records nothing.
  std::string add(const void* buffer, size_t bytes);
  // `buffer` is no longer live.
  void remove(const void* buffer);

 private:
  std::mutex mutex_;
  std::map<uintptr_t, size_t> live_;  // handle -> bytes
  bool addresses_;
};

}  // namespace hxrt::detail
