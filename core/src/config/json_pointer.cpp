#include "config/json_pointer.hpp"

namespace hxrt::detail {

std::string pointer_token(const std::string& key) {
  std::string token;
  token.reserve(key.size());
  for (char c : key) {
    if (c == '~') {
      token += "~0";
    } else if (c == '/') {
      token += "~1";
    } else {
      token += c;
    }
  }
  return token;
}

std::string pointer_child(const std::string& parent, const std::string& key) {
  return parent + "/" + pointer_token(key);
}

std::string pointer_child(const std::string& parent, size_t index) {
  return parent + "/" + std::to_string(index);
}

}  // namespace hxrt::detail
