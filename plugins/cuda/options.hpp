// The plugin's options, as given in the config under plugins.options.cuda.
#pragma once

#include <hxrt/plugin_api.h>

#include <cstddef>
#include <string>
#include <vector>

namespace hxcuda {

struct CudaOptions {
  // A testing aid (fault_kernel.hpp): after the kernel of each op named here, a kernel that
  // traps is enqueued on the same stream, so the op's work fails after its call returned and
  // the GPU's context is lost. Empty by default; never for production use.
  std::vector<std::string> fault_ops;
};

// Parses the options text (a JSON object; NULL or empty means "{}") into *out.
// INVALID_ARGUMENT for text that is not a JSON object, an unknown key, or a fault_ops that is
// not a list of names of ops the plugin has kernels for.
hx_status* parse_options(const hx_core_services& services, const char* json, size_t length,
                         CudaOptions* out);

}  // namespace hxcuda
