// The ABI version as the loader, the plugins and the kit print it ("2.3"), so that tests of
// those messages need no edit when the minor grows.
#pragma once

#include <hxrt/plugin_api.h>

#include <string>

inline std::string abi_text(int major = HX_ABI_VERSION_MAJOR, int minor = HX_ABI_VERSION_MINOR) {
  return std::to_string(major) + "." + std::to_string(minor);
}
