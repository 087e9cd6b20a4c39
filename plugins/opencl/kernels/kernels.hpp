// The plugin's kernels: a create, a compute and (with create) the shared destroy for each op;
// kernel_registry.cpp registers them for float32.
#pragma once

#include <hxrt/plugin_api.h>

namespace hxopencl {

// Add, Sub, Mul and Div: user_data is the program's kernel name ("add_f32").
hx_status* binary_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance);
hx_status* binary_compute(const hx_kernel_args* args);

hx_status* relu_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance);
hx_status* relu_compute(const hx_kernel_args* args);

hx_status* addn_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance);
hx_status* addn_compute(const hx_kernel_args* args);

hx_status* sum_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance);
hx_status* sum_compute(const hx_kernel_args* args);

hx_status* cast_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance);
hx_status* cast_compute(const hx_kernel_args* args);

hx_status* fill_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance);
hx_status* fill_compute(const hx_kernel_args* args);

hx_status* matmul_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance);
hx_status* matmul_compute(const hx_kernel_args* args);
// Declines what the tiled kernel cannot run: vectors and stacks of matrices.
hx_status* matmul_check(const hx_kernel_args* args);

// Identity needs no state: a copy of the input's bytes.
hx_status* identity_compute(const hx_kernel_args* args);

}  // namespace hxopencl
