// cuBLAS, loaded the first time a kernel needs it rather than with the plugin: cuBLAS and
// cuBLASLt take over 100 ms to load, which start-up on a machine without a GPU, and any
// process that never multiplies matrices on one, should not pay. The plugin therefore does not
// link cuBLAS; it opens the library with dlopen and calls it through these pointers.
#pragma once

#include <cublas_v2.h>

namespace hxcuda {

// The cuBLAS functions the plugin calls.
struct CublasLibrary {
  decltype(&cublasCreate_v2) create;
  decltype(&cublasDestroy_v2) destroy;
  decltype(&cublasSetStream_v2) set_stream;
  decltype(&cublasSetWorkspace_v2) set_workspace;
  decltype(&cublasSetMathMode) set_math_mode;
  // Spelled out: C++ sees a second cublasGemmEx, an inline overload for old code.
  cublasStatus_t (*gemm_ex)(cublasHandle_t handle, cublasOperation_t transa,
                            cublasOperation_t transb, int m, int n, int k, const void* alpha,
                            const void* a, cudaDataType_t a_type, int lda, const void* b,
                            cudaDataType_t b_type, int ldb, const void* beta, void* c,
                            cudaDataType_t c_type, int ldc, cublasComputeType_t compute_type,
                            cublasGemmAlgo_t algo);
  decltype(&cublasGetStatusName) status_name;
  decltype(&cublasGetStatusString) status_string;
};

// The library, loaded by the first call (from any thread) and kept until the process ends.
// NULL when it cannot be loaded; *why then says what was tried and what dlopen or dlsym said.
const CublasLibrary* cublas_library(const char** why);

}  // namespace hxcuda
