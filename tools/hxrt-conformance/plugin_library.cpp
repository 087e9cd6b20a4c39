#include "plugin_library.hpp"

#include <dlfcn.h>

#include <utility>

namespace hxrt_conformance {

PluginLibrary::PluginLibrary(std::string path) : path_(std::move(path)) {
  handle_ = dlopen(path_.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle_ == nullptr) {
    const char* why = dlerror();
    error_ = std::string("dlopen failed: ") + (why ? why : "unknown reason");
    return;
  }
  dlerror();
  void* symbol = dlsym(handle_, HX_PLUGIN_INIT_SYMBOL);
  if (symbol == nullptr) {
    const char* why = dlerror();
    error_ = std::string("no entry symbol '" HX_PLUGIN_INIT_SYMBOL "': ") +
             (why ? why : "the symbol is NULL") +
             "; export it with HX_EXPORT (it must not be hidden or C++-mangled)";
    return;
  }
  init_ = reinterpret_cast<hx_plugin_init_fn>(symbol);
}

PluginLibrary::~PluginLibrary() {
  if (handle_ != nullptr) dlclose(handle_);
}

}  // namespace hxrt_conformance
