// The sim kernels: float32 only, plain loops. Each is registered with user_data = the
// SimPlugin (see kernel_registry.cpp) and starts by checking its operands (KernelCall).
#pragma once

#include <hxrt/plugin_api.h>

namespace hxsim {

hx_status* matmul_kernel(const hx_kernel_args* args);
hx_status* add_kernel(const hx_kernel_args* args);
hx_status* mul_kernel(const hx_kernel_args* args);
hx_status* relu_kernel(const hx_kernel_args* args);
hx_status* addn_kernel(const hx_kernel_args* args);
hx_status* identity_kernel(const hx_kernel_args* args);
hx_status* fill_kernel(const hx_kernel_args* args);

}  // namespace hxsim
