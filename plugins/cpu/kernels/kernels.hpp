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
// FusedGemm: Gemm's kernel, check and destroy, with an instance that applies the activation.
hx_status* fused_gemm_create(const hx_kernel_create_args* args,
                             hx_kernel_instance** out_instance);
hx_status* gemm_check(const hx_kernel_args* args);
// MatMulBias: Gemm's kernel and instance, its operands read as Gemm's.
hx_status* matmul_bias_create(const hx_kernel_create_args* args,
                              hx_kernel_instance** out_instance);
hx_status* matmul_bias_check(const hx_kernel_args* args);
hx_status* matmul_bias_kernel(const hx_kernel_args* args);
hx_status* gemm_kernel(const hx_kernel_args* args);
void gemm_destroy(hx_kernel_instance* instance, void* user_data);

hx_status* attention_create(const hx_kernel_create_args* args,
                            hx_kernel_instance** out_instance);
hx_status* attention_kernel(const hx_kernel_args* args);
void attention_destroy(hx_kernel_instance* instance, void* user_data);

hx_status* einsum_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance);
hx_status* einsum_kernel(const hx_kernel_args* args);
void einsum_destroy(hx_kernel_instance* instance, void* user_data);

// FusedConv: Conv's kernel, check and destroy, with an instance that applies the activation.
hx_status* fused_conv_create(const hx_kernel_create_args* args,
                             hx_kernel_instance** out_instance);
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

// The ops of blocked channels (blocked.cpp): one kernel, its create per op.
hx_status* blocked_conv_create(const hx_kernel_create_args* args, hx_kernel_instance** out);
hx_status* blocked_max_pool_create(const hx_kernel_create_args* args, hx_kernel_instance** out);
hx_status* blocked_global_average_pool_create(const hx_kernel_create_args* args,
                                              hx_kernel_instance** out);
void blocked_destroy(hx_kernel_instance* instance, void* user_data);
hx_status* blocked_check(const hx_kernel_args* args);
hx_status* blocked_kernel(const hx_kernel_args* args);
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

// ONNX's reductions (reduce.cpp), which share one create and destroy.
hx_status* reduce_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance);
void reduce_destroy(hx_kernel_instance* instance, void* user_data);
hx_status* reduce_sum_kernel(const hx_kernel_args* args);
hx_status* reduce_mean_kernel(const hx_kernel_args* args);
hx_status* reduce_prod_kernel(const hx_kernel_args* args);
hx_status* reduce_max_kernel(const hx_kernel_args* args);
hx_status* reduce_min_kernel(const hx_kernel_args* args);
hx_status* reduce_l1_kernel(const hx_kernel_args* args);
hx_status* reduce_l2_kernel(const hx_kernel_args* args);
hx_status* reduce_sum_square_kernel(const hx_kernel_args* args);
hx_status* reduce_log_sum_exp_kernel(const hx_kernel_args* args);

// ArgMax and ArgMin (arg_reduce.cpp), Softmax and LogSoftmax (softmax.cpp), CumSum.
hx_status* arg_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance);
void arg_destroy(hx_kernel_instance* instance, void* user_data);
hx_status* arg_max_kernel(const hx_kernel_args* args);
hx_status* arg_min_kernel(const hx_kernel_args* args);
hx_status* softmax_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance);
void softmax_destroy(hx_kernel_instance* instance, void* user_data);
hx_status* softmax_kernel(const hx_kernel_args* args);
hx_status* log_softmax_kernel(const hx_kernel_args* args);
hx_status* cum_sum_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance);
hx_status* cum_sum_kernel(const hx_kernel_args* args);
void cum_sum_destroy(hx_kernel_instance* instance, void* user_data);

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
hx_status* pow_kernel(const hx_kernel_args* args);
hx_status* addn_kernel(const hx_kernel_args* args);
hx_status* relu_kernel(const hx_kernel_args* args);
hx_status* identity_kernel(const hx_kernel_args* args);
hx_status* dropout_kernel(const hx_kernel_args* args);

// The activations with attributes and Clip (activation.cpp), whose instances share one
// destroy function.
hx_status* leaky_relu_create(const hx_kernel_create_args* args, hx_kernel_instance** instance);
hx_status* leaky_relu_kernel(const hx_kernel_args* args);
hx_status* all_gather_kernel(const hx_kernel_args* args);
hx_status* all_reduce_create(const hx_kernel_create_args* args,
                             hx_kernel_instance** instance);
hx_status* all_reduce_kernel(const hx_kernel_args* args);
void all_reduce_destroy(hx_kernel_instance* instance, void* user_data);
// ReduceScatter shares AllReduce's instance (its reduction).
hx_status* reduce_scatter_kernel(const hx_kernel_args* args);
hx_status* gelu_create(const hx_kernel_create_args* args, hx_kernel_instance** instance);
hx_status* gelu_kernel(const hx_kernel_args* args);
void gelu_destroy(hx_kernel_instance* instance, void* user_data);
hx_status* hard_sigmoid_create(const hx_kernel_create_args* args,
                               hx_kernel_instance** instance);
hx_status* hard_sigmoid_kernel(const hx_kernel_args* args);
hx_status* hard_swish_kernel(const hx_kernel_args* args);
hx_status* clip_create(const hx_kernel_create_args* args, hx_kernel_instance** instance);
hx_status* clip_kernel(const hx_kernel_args* args);
void activation_destroy(hx_kernel_instance* instance, void* user_data);

// Min, Max and Where (selection.cpp).
hx_status* min_kernel(const hx_kernel_args* args);
hx_status* max_kernel(const hx_kernel_args* args);
hx_status* where_kernel(const hx_kernel_args* args);

// The comparisons and logic (comparison.cpp).
hx_status* equal_kernel(const hx_kernel_args* args);
hx_status* less_kernel(const hx_kernel_args* args);
hx_status* greater_kernel(const hx_kernel_args* args);
hx_status* less_or_equal_kernel(const hx_kernel_args* args);
hx_status* greater_or_equal_kernel(const hx_kernel_args* args);
hx_status* not_kernel(const hx_kernel_args* args);
hx_status* and_kernel(const hx_kernel_args* args);
hx_status* or_kernel(const hx_kernel_args* args);

// The shape family (shape_ops.cpp).
hx_status* reshape_kernel(const hx_kernel_args* args);
hx_status* flatten_kernel(const hx_kernel_args* args);
hx_status* squeeze_kernel(const hx_kernel_args* args);
hx_status* unsqueeze_kernel(const hx_kernel_args* args);
hx_status* transpose_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance);
hx_status* transpose_kernel(const hx_kernel_args* args);
void transpose_destroy(hx_kernel_instance* instance, void* user_data);
hx_status* expand_kernel(const hx_kernel_args* args);
hx_status* tile_kernel(const hx_kernel_args* args);

// The indexing family (indexing.cpp). axis_create reads "axis" for Concat, Split, Gather and
// GatherElements; indexing_destroy frees its instances and ScatterElements'.
hx_status* axis_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance);
hx_status* scatter_elements_create(const hx_kernel_create_args* args,
                                   hx_kernel_instance** out_instance);
void indexing_destroy(hx_kernel_instance* instance, void* user_data);
hx_status* concat_kernel(const hx_kernel_args* args);
hx_status* split_kernel(const hx_kernel_args* args);
hx_status* gather_kernel(const hx_kernel_args* args);
hx_status* gather_elements_kernel(const hx_kernel_args* args);
hx_status* scatter_elements_kernel(const hx_kernel_args* args);
hx_status* slice_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance);
hx_status* slice_kernel(const hx_kernel_args* args);
void slice_destroy(hx_kernel_instance* instance, void* user_data);

// TopK (top_k.cpp).
hx_status* top_k_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance);
hx_status* top_k_kernel(const hx_kernel_args* args);
void top_k_destroy(hx_kernel_instance* instance, void* user_data);

// NonZero (non_zero.cpp).
hx_status* non_zero_kernel(const hx_kernel_args* args);

// The layout family (layout.cpp); block_destroy frees DepthToSpace's and SpaceToDepth's
// instances.
hx_status* pad_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance);
hx_status* pad_kernel(const hx_kernel_args* args);
void pad_destroy(hx_kernel_instance* instance, void* user_data);
hx_status* depth_to_space_create(const hx_kernel_create_args* args,
                                 hx_kernel_instance** out_instance);
hx_status* depth_to_space_kernel(const hx_kernel_args* args);
hx_status* space_to_depth_create(const hx_kernel_create_args* args,
                                 hx_kernel_instance** out_instance);
hx_status* space_to_depth_kernel(const hx_kernel_args* args);
void block_destroy(hx_kernel_instance* instance, void* user_data);

// Resize and Upsample (resize.cpp), one instance type for both.
hx_status* resize_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance);
hx_status* upsample_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance);
hx_status* resize_kernel(const hx_kernel_args* args);
hx_status* upsample_kernel(const hx_kernel_args* args);
void resize_destroy(hx_kernel_instance* instance, void* user_data);

// Shape, Size and Range (generated.cpp).
hx_status* shape_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance);
hx_status* shape_kernel(const hx_kernel_args* args);
void shape_destroy(hx_kernel_instance* instance, void* user_data);
hx_status* size_kernel(const hx_kernel_args* args);
hx_status* range_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance);
hx_status* range_kernel(const hx_kernel_args* args);
void range_destroy(hx_kernel_instance* instance, void* user_data);

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
