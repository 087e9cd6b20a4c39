// The plugin's kernels: a create, a compute and (with create) the shared destroy for each op;
// kernel_registry.cpp registers them for float32.
#pragma once

#include <hxrt/plugin_api.h>

namespace hxopencl {

// Add, Sub, Mul, Div, Pow, Min, Max and the comparisons: user_data is the program's kernel
// name ("add_f32").
hx_status* binary_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance);
hx_status* binary_compute(const hx_kernel_args* args);

hx_status* relu_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance);
hx_status* relu_compute(const hx_kernel_args* args);

hx_status* addn_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance);
hx_status* addn_compute(const hx_kernel_args* args);


hx_status* cast_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance);
hx_status* cast_compute(const hx_kernel_args* args);

hx_status* fill_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance);
hx_status* fill_compute(const hx_kernel_args* args);

hx_status* matmul_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance);
// Gemm: MatMul's kernels with transA/transB, alpha, and beta times C added (matmul_compute and
// matmul_check serve both).
hx_status* gemm_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance);
hx_status* matmul_compute(const hx_kernel_args* args);
// Declines what the tiled kernel cannot run: vectors, and stacks whose batch axes broadcast.
hx_status* matmul_check(const hx_kernel_args* args);

// The unary element-wise ops: user_data is the program's kernel name ("exp_f32").
hx_status* unary_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance);
hx_status* unary_compute(const hx_kernel_args* args);
// Declines calls of other than two inputs (Min and Max take one or more).
hx_status* two_inputs_check(const hx_kernel_args* args);
// Declines an exponent of another dtype than the base (Pow's T1).
hx_status* same_dtypes_check(const hx_kernel_args* args);

// Softmax and LogSoftmax: user_data is the program's kernel name.
hx_status* softmax_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance);
hx_status* softmax_compute(const hx_kernel_args* args);

// hxrt's Sum and ONNX's Reduce ops: user_data is one of the Reductions below.
struct Reduction {
  const char* kernel;  // program.cl's
  bool onnx_axes;      // an empty axes list is none given (ONNX's), not no axis (Sum's)
};
extern const Reduction kSum, kReduceSum, kReduceMean, kReduceMax, kReduceMin, kReduceL2;
hx_status* reduce_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance);
hx_status* reduce_compute(const hx_kernel_args* args);

// LayerNormalization; the check declines a Scale or B that broadcasts within a run.
hx_status* layer_norm_create(const hx_kernel_create_args* args, hx_kernel_instance** out);
hx_status* layer_norm_check(const hx_kernel_args* args);
hx_status* layer_norm_compute(const hx_kernel_args* args);

// Identity and the reshapes need no state: a copy of the input's bytes.
hx_status* copy_compute(const hx_kernel_args* args);
hx_status* transpose_create(const hx_kernel_create_args* args, hx_kernel_instance** out);
hx_status* transpose_compute(const hx_kernel_args* args);
hx_status* slice_create(const hx_kernel_create_args* args, hx_kernel_instance** out);
hx_status* slice_compute(const hx_kernel_args* args);
hx_status* expand_create(const hx_kernel_create_args* args, hx_kernel_instance** out);
hx_status* expand_compute(const hx_kernel_args* args);
hx_status* concat_create(const hx_kernel_create_args* args, hx_kernel_instance** out);
hx_status* concat_compute(const hx_kernel_args* args);
hx_status* gather_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance);
hx_status* gather_compute(const hx_kernel_args* args);

}  // namespace hxopencl
