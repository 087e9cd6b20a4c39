#include "cublas_library.hpp"

#include <dlfcn.h>

#include <string>

namespace hxcuda {
namespace {

// HXRT_CUBLAS_SONAME is the cuBLAS of the toolkit the plugin was built with
// ("libcublas.so.13"); the plugin's RUNPATH names the toolkit's library folder, which dlopen
// searches for a library the plugin opens.
struct Loaded {
  CublasLibrary functions{};
  bool ok = false;
  std::string why;
};

template <class Function>
bool find(void* library, const char* name, Function* out, std::string* why) {
  *out = reinterpret_cast<Function>(dlsym(library, name));
  if (*out != nullptr) return true;
  *why = std::string("cuBLAS (" HXRT_CUBLAS_SONAME ") lacks ") + name;
  return false;
}

Loaded load() {
  Loaded loaded;
  // Never closed: the plugin itself stays loaded for the life of the process (-z nodelete),
  // and cuBLAS handles may outlive any one runtime.
  void* library = dlopen(HXRT_CUBLAS_SONAME, RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const char* error = dlerror();
    loaded.why = std::string("cannot load cuBLAS: ") + (error ? error : HXRT_CUBLAS_SONAME);
    return loaded;
  }
  CublasLibrary& f = loaded.functions;
  loaded.ok = find(library, "cublasCreate_v2", &f.create, &loaded.why) &&
              find(library, "cublasDestroy_v2", &f.destroy, &loaded.why) &&
              find(library, "cublasSetStream_v2", &f.set_stream, &loaded.why) &&
              find(library, "cublasSetWorkspace_v2", &f.set_workspace, &loaded.why) &&
              find(library, "cublasSetMathMode", &f.set_math_mode, &loaded.why) &&
              find(library, "cublasGemmEx", &f.gemm_ex, &loaded.why) &&
              find(library, "cublasGetStatusName", &f.status_name, &loaded.why) &&
              find(library, "cublasGetStatusString", &f.status_string, &loaded.why);
  return loaded;
}

}  // namespace

const CublasLibrary* cublas_library(const char** why) {
  // A function-local static: loaded once, and every thread waits for that one load.
  static const Loaded loaded = load();
  *why = loaded.why.c_str();
  return loaded.ok ? &loaded.functions : nullptr;
}

}  // namespace hxcuda
