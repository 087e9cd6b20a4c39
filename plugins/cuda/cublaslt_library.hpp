// cuBLASLt, loaded the first time a kernel that needs it is made rather than with the plugin,
// as cuBLAS is (toolkit_library.hpp): the plugin does not link it; it opens the toolkit's
// libcublasLt and calls it through these pointers. cuBLASLt is cuBLAS's matmul with epilogues
// (a bias and an activation applied as the product is written), which FusedGemm uses.
#pragma once

#include <cublasLt.h>

#include <string>

namespace hxcuda {

// The cuBLASLt functions the plugin calls.
struct CublasLtLibrary {
  decltype(&cublasLtCreate) create;
  decltype(&cublasLtDestroy) destroy;
  decltype(&cublasLtMatmulDescCreate) create_matmul;
  decltype(&cublasLtMatmulDescSetAttribute) set_matmul_attribute;
  decltype(&cublasLtMatmulDescDestroy) destroy_matmul;
  decltype(&cublasLtMatrixLayoutCreate) create_layout;
  decltype(&cublasLtMatrixLayoutDestroy) destroy_layout;
  decltype(&cublasLtMatmulPreferenceCreate) create_preference;
  decltype(&cublasLtMatmulPreferenceSetAttribute) set_preference_attribute;
  decltype(&cublasLtMatmulPreferenceDestroy) destroy_preference;
  decltype(&cublasLtMatmulAlgoGetHeuristic) heuristic;
  decltype(&cublasLtMatmul) matmul;
  decltype(&cublasLtGetStatusName) status_name;
  decltype(&cublasLtGetStatusString) status_string;
};

// The library, loaded by the first call (from any thread) and kept until the process ends.
// NULL when it cannot be loaded; *why then says what was tried and what dlopen or dlsym said.
const CublasLtLibrary* cublaslt_library(const char** why);

}  // namespace hxcuda
