#include "toolkit_library.hpp"

#include <dlfcn.h>

namespace hxcuda {

ToolkitLibrary::ToolkitLibrary(const char* name, const char* soname)
    : name_(name), soname_(soname), handle_(dlopen(soname, RTLD_NOW | RTLD_LOCAL)) {
  if (handle_ != nullptr) return;
  const char* error = dlerror();
  why_ = std::string("cannot load ") + name + ": " + (error != nullptr ? error : soname);
}

void* ToolkitLibrary::address_of(const char* symbol, bool required) {
  if (handle_ == nullptr) return nullptr;
  void* address = dlsym(handle_, symbol);
  if (address == nullptr && required && why_.empty()) {
    why_ = std::string(name_) + " (" + soname_ + ") lacks " + symbol;
  }
  return address;
}

}  // namespace hxcuda
