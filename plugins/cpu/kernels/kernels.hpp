// The CPU kernels, one compute function per op; each dispatches on its dtype inside. Every
// one of them is registered with user_data = the CpuPlugin (see kernel_registry.cpp). The
// kernels with attributes read them once, in their create function, into an instance that
// their destroy function frees.
#pragma once

#include <hxrt/plugin_api.h>

namespace hxcpu {

hx_status* matmul_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance);
hx_status* matmul_check(const hx_kernel_args* args);
hx_status* matmul_kernel(const hx_kernel_args* args);
void matmul_destroy(hx_kernel_instance* instance, void* user_data);

hx_status* gemm_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance);
hx_status* gemm_check(const hx_kernel_args* args);
hx_status* gemm_kernel(const hx_kernel_args* args);
void gemm_destroy(hx_kernel_instance* instance, void* user_data);

hx_status* einsum_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance);
hx_status* einsum_kernel(const hx_kernel_args* args);
void einsum_destroy(hx_kernel_instance* instance, void* user_data);

hx_status* conv_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance);
hx_status* conv_check(const hx_kernel_args* args);
hx_status* conv_kernel(const hx_kernel_args* args);
void conv_destroy(hx_kernel_instance* instance, void* user_data);

hx_status* conv_transpose_create(const hx_kernel_create_args* args,
                                 hx_kernel_instance** out_instance);
hx_status* conv_transpose_check(const hx_kernel_args* args);
hx_status* conv_transpose_kernel(const hx_kernel_args* args);
void conv_transpose_destroy(hx_kernel_instance* instance, void* user_data);

// The pools (pool.cpp): one compute, check and destroy, a create per op.
hx_status* max_pool_create(const hx_kernel_create_args* args, hx_kernel_instance** out);
hx_status* average_pool_create(const hx_kernel_create_args* args, hx_kernel_instance** out);
hx_status* global_max_pool_create(const hx_kernel_create_args* args, hx_kernel_instance** out);
hx_status* global_average_pool_create(const hx_kernel_create_args* args,
                                      hx_kernel_instance** out);
hx_status* pool_check(const hx_kernel_args* args);
hx_status* pool_kernel(const hx_kernel_args* args);
void pool_destroy(hx_kernel_instance* instance, void* user_data);

// The normalizations (norm.cpp): epsilon (and axis) read at create.
hx_status* batch_norm_create(const hx_kernel_create_args* args, hx_kernel_instance** out);
hx_status* layer_norm_create(const hx_kernel_create_args* args, hx_kernel_instance** out);
hx_status* instance_norm_create(const hx_kernel_create_args* args, hx_kernel_instance** out);
hx_status* batch_norm_kernel(const hx_kernel_args* args);
hx_status* layer_norm_kernel(const hx_kernel_args* args);
hx_status* instance_norm_kernel(const hx_kernel_args* args);
void norm_destroy(hx_kernel_instance* instance, void* user_data);

hx_status* sum_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance);
hx_status* sum_kernel(const hx_kernel_args* args);
void sum_destroy(hx_kernel_instance* instance, void* user_data);

hx_status* cast_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance);
hx_status* cast_kernel(const hx_kernel_args* args);
void cast_destroy(hx_kernel_instance* instance, void* user_data);

hx_status* fill_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance);
hx_status* fill_kernel(const hx_kernel_args* args);
void fill_destroy(hx_kernel_instance* instance, void* user_data);

hx_status* add_kernel(const hx_kernel_args* args);
hx_status* sub_kernel(const hx_kernel_args* args);
hx_status* mul_kernel(const hx_kernel_args* args);
hx_status* div_kernel(const hx_kernel_args* args);
hx_status* addn_kernel(const hx_kernel_args* args);
hx_status* relu_kernel(const hx_kernel_args* args);
hx_status* identity_kernel(const hx_kernel_args* args);

// The unary element-wise family (unary.cpp).
hx_status* exp_kernel(const hx_kernel_args* args);
hx_status* log_kernel(const hx_kernel_args* args);
hx_status* sqrt_kernel(const hx_kernel_args* args);
hx_status* reciprocal_kernel(const hx_kernel_args* args);
hx_status* erf_kernel(const hx_kernel_args* args);
hx_status* tanh_kernel(const hx_kernel_args* args);
hx_status* sigmoid_kernel(const hx_kernel_args* args);
hx_status* floor_kernel(const hx_kernel_args* args);
hx_status* ceil_kernel(const hx_kernel_args* args);
hx_status* round_kernel(const hx_kernel_args* args);
hx_status* neg_kernel(const hx_kernel_args* args);
hx_status* abs_kernel(const hx_kernel_args* args);
hx_status* sign_kernel(const hx_kernel_args* args);

}  // namespace hxcpu
