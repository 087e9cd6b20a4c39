// A library of NVIDIA's that the plugin opens at its first use instead of linking it (cuBLAS,
// cuBLASLt, cuDNN): each takes tens to hundreds of milliseconds to load, which start-up on a
// machine without a GPU, and any process that never calls it, should not pay. The library is
// opened by the soname of the toolkit the plugin was built with; the plugin's RUNPATH names
// the toolkit's library folder, which dlopen searches for a library the plugin opens.
#pragma once

#include <string>

namespace hxcuda {

class ToolkitLibrary {
 public:
  // Opens `soname` (RTLD_NOW | RTLD_LOCAL). The library is never closed: the plugin itself
  // stays loaded for the life of the process (-z nodelete), and handles the library made may
  // outlive any one runtime. `name` ("cuDNN") is for messages; both must outlive the object.
  ToolkitLibrary(const char* name, const char* soname);

  // Sets *function to the library's `symbol`. False when the library did not open or lacks
  // the symbol; why() then says which.
  template <class Function>
  bool find(const char* symbol, Function* function) {
    *function = reinterpret_cast<Function>(address_of(symbol, true));
    return *function != nullptr;
  }
  // The same for a function that older versions of the library lack: NULL then, which is not
  // a failure.
  template <class Function>
  void find_optional(const char* symbol, Function* function) {
    *function = reinterpret_cast<Function>(address_of(symbol, false));
  }

  // "cannot load cuDNN: <what dlopen said>", or "cuDNN (libcudnn.so.9) lacks <symbol>"; empty
  // while nothing failed.
  const std::string& why() const { return why_; }

 private:
  void* address_of(const char* symbol, bool required);

  const char* name_;
  const char* soname_;
  void* handle_ = nullptr;
  std::string why_;
};

}  // namespace hxcuda
