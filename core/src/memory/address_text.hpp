// "0x7f3a2c000000": an address as the allocator's messages print it.
#pragma once

#include <cstdio>
#include <string>

namespace hxrt::detail {

inline std::string address_text(const void* ptr) {
  char text[32];
  std::snprintf(text, sizeof text, "%p", ptr);
  return text;
}

}  // namespace hxrt::detail
