// The CPU kernels, one compute function per op; each dispatches on its dtype inside. Every
// one of them is registered with user_data = the CpuPlugin (see kernel_registry.cpp).
#pragma once

#include <hxrt/plugin_api.h>

namespace hxcpu {

hx_status* matmul_kernel(const hx_kernel_args* args);
hx_status* add_kernel(const hx_kernel_args* args);
hx_status* sub_kernel(const hx_kernel_args* args);
hx_status* mul_kernel(const hx_kernel_args* args);
hx_status* div_kernel(const hx_kernel_args* args);
hx_status* addn_kernel(const hx_kernel_args* args);
hx_status* relu_kernel(const hx_kernel_args* args);
hx_status* cast_kernel(const hx_kernel_args* args);
hx_status* fill_kernel(const hx_kernel_args* args);
hx_status* sum_kernel(const hx_kernel_args* args);
hx_status* identity_kernel(const hx_kernel_args* args);

}  // namespace hxcpu
