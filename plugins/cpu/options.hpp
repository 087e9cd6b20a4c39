// The plugin's options, as given in the config under plugins.options.cpu.
#pragma once

#include <hxrt/plugin_api.h>

#include <cstddef>

#include "blas/blas_core_choice.hpp"

namespace hxcpu {

struct CpuOptions {
  // "blas_core": the OpenBLAS core MatMul runs on (blas/blas_core_choice.hpp); "auto" by
  // default.
  BlasCoreRequest blas_core;
};

// Parses the options text (a JSON object; NULL or empty means "{}") into *out. INVALID_ARGUMENT
// "cpu plugin option 'blas_core': ..." for a value it refuses, and "cpu plugin options:
// unknown option 'x'; ..." for a key it does not know.
hx_status* parse_options(const hx_core_services& services, const char* json, size_t length,
                         CpuOptions* out);

}  // namespace hxcpu
