// The plugin's shared object, opened the way the core opens it (RTLD_NOW | RTLD_LOCAL).
#pragma once

#include <hxrt/plugin_api.h>

#include <string>

namespace hxrt_conformance {

class PluginLibrary {
 public:
  // Opens `path`; on failure error() says why (dlerror's text) and init() is NULL.
  explicit PluginLibrary(std::string path);
  ~PluginLibrary();  // dlclose
  PluginLibrary(const PluginLibrary&) = delete;
  PluginLibrary& operator=(const PluginLibrary&) = delete;

  const std::string& path() const { return path_; }
  bool opened() const { return handle_ != nullptr; }
  const std::string& error() const { return error_; }
  // The exported hx_plugin_init, or NULL (error() then says why).
  hx_plugin_init_fn init() const { return init_; }

 private:
  std::string path_;
  void* handle_ = nullptr;
  hx_plugin_init_fn init_ = nullptr;
  std::string error_;
};

}  // namespace hxrt_conformance
