// The sim kernels: float32 only, plain loops. Each is registered with user_data = the
// SimPlugin (see kernel_registry.cpp) and starts by checking its operands (KernelCall). MatMul,
// Gemm, Fill and AllReduce read their attributes once, in create.
#pragma once

#include <hxrt/plugin_api.h>

namespace hxsim {

hx_status* matmul_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance);
hx_status* matmul_check(const hx_kernel_args* args);
hx_status* matmul_kernel(const hx_kernel_args* args);
void matmul_destroy(hx_kernel_instance* instance, void* user_data);
hx_status* gemm_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance);
hx_status* gemm_kernel(const hx_kernel_args* args);
void gemm_destroy(hx_kernel_instance* instance, void* user_data);
hx_status* add_kernel(const hx_kernel_args* args);
hx_status* mul_kernel(const hx_kernel_args* args);
hx_status* relu_kernel(const hx_kernel_args* args);
hx_status* addn_kernel(const hx_kernel_args* args);
hx_status* all_reduce_create(const hx_kernel_create_args* args,
                             hx_kernel_instance** out_instance);
hx_status* all_reduce_kernel(const hx_kernel_args* args);
void all_reduce_destroy(hx_kernel_instance* instance, void* user_data);
hx_status* all_gather_kernel(const hx_kernel_args* args);
hx_status* broadcast_kernel(const hx_kernel_args* args);
hx_status* identity_kernel(const hx_kernel_args* args);
hx_status* fill_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance);
hx_status* fill_kernel(const hx_kernel_args* args);
void fill_destroy(hx_kernel_instance* instance, void* user_data);

}  // namespace hxsim
