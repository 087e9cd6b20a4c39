// Lower case for the names that the config, the environment and the log levels accept in any
// case: ASCII only, byte by byte, so that the locale never changes what a name means.
#pragma once

#include <cctype>
#include <string>
#include <string_view>

namespace hxrt::detail {

inline std::string lowercase_ascii(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower;
}

}  // namespace hxrt::detail
