#include "cublaslt_library.hpp"

#include <string>

#include "toolkit_library.hpp"

namespace hxcuda {
namespace {

// HXRT_CUBLASLT_SONAME is the cuBLASLt of the toolkit the plugin was built with
// ("libcublasLt.so.13").
struct LoadedCublasLt {
  CublasLtLibrary functions{};
  bool ok = false;
  std::string why;
};

LoadedCublasLt load_cublaslt() {
  LoadedCublasLt loaded;
  ToolkitLibrary library("cuBLASLt", HXRT_CUBLASLT_SONAME);
  CublasLtLibrary& f = loaded.functions;
  loaded.ok = library.find("cublasLtCreate", &f.create) &&
              library.find("cublasLtDestroy", &f.destroy) &&
              library.find("cublasLtMatmulDescCreate", &f.create_matmul) &&
              library.find("cublasLtMatmulDescSetAttribute", &f.set_matmul_attribute) &&
              library.find("cublasLtMatmulDescDestroy", &f.destroy_matmul) &&
              library.find("cublasLtMatrixLayoutCreate", &f.create_layout) &&
              library.find("cublasLtMatrixLayoutDestroy", &f.destroy_layout) &&
              library.find("cublasLtMatmulPreferenceCreate", &f.create_preference) &&
              library.find("cublasLtMatmulPreferenceSetAttribute", &f.set_preference_attribute) &&
              library.find("cublasLtMatmulPreferenceDestroy", &f.destroy_preference) &&
              library.find("cublasLtMatmulAlgoGetHeuristic", &f.heuristic) &&
              library.find("cublasLtMatmul", &f.matmul) &&
              library.find("cublasLtGetStatusName", &f.status_name) &&
              library.find("cublasLtGetStatusString", &f.status_string);
  loaded.why = library.why();
  return loaded;
}

}  // namespace

const CublasLtLibrary* cublaslt_library(const char** why) {
  // A function-local static: loaded once, and every thread waits for that one load.
  static const LoadedCublasLt loaded = load_cublaslt();
  *why = loaded.why.c_str();
  return loaded.ok ? &loaded.functions : nullptr;
}

}  // namespace hxcuda
