#include "plugins/plugin_text.hpp"

#include <cstring>

#include "base/logger.hpp"

namespace hxrt::detail {

std::string read_bounded(const char* text, size_t max_bytes) {
  if (text == nullptr) return {};
  return std::string(text, strnlen(text, max_bytes));
}

std::string plugin_text(const char* text, size_t max_bytes) {
  std::string read = read_bounded(text, max_bytes + 1);
  const bool cut = read.size() > max_bytes;
  if (cut) read.resize(max_bytes);
  return printable(read) + (cut ? "..." : "");
}

}  // namespace hxrt::detail
