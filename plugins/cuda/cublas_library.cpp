#include "cublas_library.hpp"

#include <string>

#include "toolkit_library.hpp"

namespace hxcuda {
namespace {

// HXRT_CUBLAS_SONAME is the cuBLAS of the toolkit the plugin was built with
// ("libcublas.so.13").
struct LoadedCublas {
  CublasLibrary functions{};
  bool ok = false;
  std::string why;
};

LoadedCublas load_cublas() {
  LoadedCublas loaded;
  ToolkitLibrary library("cuBLAS", HXRT_CUBLAS_SONAME);
  CublasLibrary& f = loaded.functions;
  loaded.ok = library.find("cublasCreate_v2", &f.create) &&
              library.find("cublasDestroy_v2", &f.destroy) &&
              library.find("cublasSetStream_v2", &f.set_stream) &&
              library.find("cublasSetWorkspace_v2", &f.set_workspace) &&
              library.find("cublasSetMathMode", &f.set_math_mode) &&
              library.find("cublasGemmEx", &f.gemm_ex) &&
              library.find("cublasGetStatusName", &f.status_name) &&
              library.find("cublasGetStatusString", &f.status_string);
  loaded.why = library.why();
  return loaded;
}

}  // namespace

const CublasLibrary* cublas_library(const char** why) {
  // A function-local static: loaded once, and every thread waits for that one load.
  static const LoadedCublas loaded = load_cublas();
  *why = loaded.why.c_str();
  return loaded.ok ? &loaded.functions : nullptr;
}

}  // namespace hxcuda
