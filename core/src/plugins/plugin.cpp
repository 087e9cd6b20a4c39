#include "plugins/plugin.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cstring>

#include "hxrt/plugin_vocabulary.h"
#include "plugins/plugin_limits.hpp"
#include "plugins/plugin_text.hpp"

namespace hxrt::detail {

Plugin::Plugin(std::string path, void* library, const hx_plugin_api& api,
               CoreHandle core)
    : path_(std::move(path)), library_(library), core_(std::move(core)) {
  std::memset(&api_, 0, sizeof api_);
  std::memcpy(&api_, &api, std::min(api.struct_size, sizeof api_));
  api_.struct_size = std::min(api.struct_size, sizeof api_);
  streams_ = api_.streams;
  events_ = api_.events;
  recording_ = hx_plugin_api_recording(&api_);
  // One byte beyond each limit, so that the loader sees a string that is too long as such.
  name_ = read_bounded(api_.name, HX_MAX_PLUGIN_NAME_LENGTH + 1);
  version_ = read_bounded(api_.version, HX_MAX_PLUGIN_VERSION_LENGTH + 1);
  device_type_ = read_bounded(api_.device_type, HX_MAX_DEVICE_TYPE_LENGTH + 1);
}

Plugin::~Plugin() {
  if (api_.shutdown != nullptr) api_.shutdown(api_.plugin);
  if (library_ != nullptr) dlclose(library_);
}

std::string Plugin::abi_version() const {
  return std::to_string(api_.abi_major) + "." + std::to_string(api_.abi_minor);
}

}  // namespace hxrt::detail
