// JSON pointers (RFC 6901) name every place in a config: errors and Config::origins use them.
#pragma once

#include <cstddef>
#include <string>

namespace hxrt::detail {

// `key` as one pointer token: '~' becomes "~0" and '/' becomes "~1", so that a key such as
// "/GPU:0" stays one token ("/devices/~1GPU:0/memory") instead of becoming two.
std::string pointer_token(const std::string& key);

// "/devices" + "GPU:0" -> "/devices/GPU:0"; "/visible_devices" + 1 -> "/visible_devices/1".
std::string pointer_child(const std::string& parent, const std::string& key);
std::string pointer_child(const std::string& parent, size_t index);

}  // namespace hxrt::detail
