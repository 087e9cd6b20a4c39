// The builtin ops, one function per family; add_builtin_ops calls them all. Each family's
// schemas are in <family>_ops.cpp and their reference cases (hxrt/op_reference.hpp) in
// <family>_reference.cpp: the schema points at its op's cases.
#pragma once

#include <vector>

#include "ops/op_schema.hpp"

namespace hxrt::detail {

void add_matmul_op(OpRegistry& registry);        // MatMul
void add_gemm_op(OpRegistry& registry);          // Gemm, FusedGemm
void add_matmul_bias_op(OpRegistry& registry);   // MatMulBias
void add_attention_op(OpRegistry& registry);     // MultiHeadAttention
void add_einsum_op(OpRegistry& registry);        // Einsum
void add_conv_ops(OpRegistry& registry);         // Conv, FusedConv
void add_conv_transpose_op(OpRegistry& registry);  // ConvTranspose
// MaxPool, AveragePool, GlobalMaxPool, GlobalAveragePool
void add_pool_ops(OpRegistry& registry);
// After the conv and pool ops, whose schemas they derive from.
void add_channel_block_ops(OpRegistry& registry);
// BatchNormalization, LayerNormalization, InstanceNormalization
void add_norm_ops(OpRegistry& registry);
void add_elementwise_ops(OpRegistry& registry);  // Add, Sub, Mul, Div, Pow, AddN, Relu
// Exp, Log, Sqrt, Reciprocal, Erf, Tanh, Sigmoid, Floor, Ceil, Round, Neg, Abs, Sign
void add_unary_ops(OpRegistry& registry);
void add_array_ops(OpRegistry& registry);        // Cast, Identity, Fill
void add_reduction_ops(OpRegistry& registry);    // Sum
void add_selection_ops(OpRegistry& registry);    // Min, Max, Where
// Equal, Less, Greater, LessOrEqual, GreaterOrEqual, Not, And, Or
void add_comparison_ops(OpRegistry& registry);
// LeakyRelu, Gelu, HardSigmoid, HardSwish, Clip, Dropout
void add_activation_ops(OpRegistry& registry);
// ReduceSum, ReduceMean, ReduceProd, ReduceMax, ReduceMin, ReduceL1, ReduceL2, ReduceSumSquare,
// ReduceLogSumExp
void add_reduce_ops(OpRegistry& registry);
void add_axis_ops(OpRegistry& registry);  // ArgMax, ArgMin, Softmax, LogSoftmax, CumSum
// Reshape, Flatten, Squeeze, Unsqueeze, Transpose, Expand, Tile
void add_shape_ops(OpRegistry& registry);
// Concat, Slice, Gather, GatherElements, ScatterElements
void add_indexing_ops(OpRegistry& registry);
void add_split_op(OpRegistry& registry);       // Split
void add_top_k_op(OpRegistry& registry);       // TopK
void add_non_zero_op(OpRegistry& registry);    // NonZero
void add_layout_ops(OpRegistry& registry);     // Pad, DepthToSpace, SpaceToDepth
void add_resize_ops(OpRegistry& registry);     // Resize, Upsample
void add_generated_ops(OpRegistry& registry);  // Shape, Size, Range
void add_collective_ops(OpRegistry& registry);  // AllReduce, AllGather, Broadcast

// The reference cases of each builtin op (ReferenceCasesFn).
std::vector<ReferenceCase> matmul_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> all_reduce_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> all_gather_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> reduce_scatter_cases(DType type, DType output_type,
                                                RandomValues& random);
std::vector<ReferenceCase> gemm_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> matmul_bias_cases(DType type, DType output_type,
                                             RandomValues& random);
std::vector<ReferenceCase> attention_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> fused_gemm_cases(DType type, DType output_type,
                                            RandomValues& random);
std::vector<ReferenceCase> einsum_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> conv_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> fused_conv_cases(DType type, DType output_type,
                                            RandomValues& random);
std::vector<ReferenceCase> blocked_conv_cases(DType type, DType output_type,
                                              RandomValues& random);
std::vector<ReferenceCase> blocked_max_pool_cases(DType type, DType output_type,
                                                  RandomValues& random);
std::vector<ReferenceCase> blocked_global_average_pool_cases(DType type, DType output_type,
                                                             RandomValues& random);
std::vector<ReferenceCase> conv_transpose_cases(DType type, DType output_type,
                                                RandomValues& random);
std::vector<ReferenceCase> max_pool_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> average_pool_cases(DType type, DType output_type,
                                              RandomValues& random);
std::vector<ReferenceCase> global_max_pool_cases(DType type, DType output_type,
                                                 RandomValues& random);
std::vector<ReferenceCase> global_average_pool_cases(DType type, DType output_type,
                                                     RandomValues& random);
std::vector<ReferenceCase> batch_norm_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> layer_norm_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> instance_norm_cases(DType type, DType output_type,
                                               RandomValues& random);
std::vector<ReferenceCase> add_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> sub_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> mul_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> div_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> pow_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> add_n_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> relu_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> exp_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> log_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> sqrt_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> reciprocal_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> erf_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> tanh_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> sigmoid_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> floor_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> ceil_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> round_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> neg_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> abs_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> sign_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> cast_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> identity_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> fill_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> sum_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> min_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> max_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> where_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> equal_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> less_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> greater_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> less_or_equal_cases(DType type, DType output_type,
                                               RandomValues& random);
std::vector<ReferenceCase> greater_or_equal_cases(DType type, DType output_type,
                                                  RandomValues& random);
std::vector<ReferenceCase> not_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> and_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> or_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> leaky_relu_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> gelu_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> hard_sigmoid_cases(DType type, DType output_type,
                                              RandomValues& random);
std::vector<ReferenceCase> hard_swish_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> clip_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> dropout_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> reduce_sum_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> reduce_mean_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> reduce_prod_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> reduce_max_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> reduce_min_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> reduce_l1_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> reduce_l2_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> reduce_sum_square_cases(DType type, DType output_type,
                                                   RandomValues& random);
std::vector<ReferenceCase> reduce_log_sum_exp_cases(DType type, DType output_type,
                                                    RandomValues& random);
std::vector<ReferenceCase> arg_max_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> arg_min_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> softmax_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> log_softmax_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> cum_sum_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> reshape_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> flatten_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> squeeze_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> unsqueeze_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> transpose_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> expand_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> tile_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> concat_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> slice_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> gather_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> gather_elements_cases(DType type, DType output_type,
                                                 RandomValues& random);
std::vector<ReferenceCase> scatter_elements_cases(DType type, DType output_type,
                                                  RandomValues& random);
std::vector<ReferenceCase> split_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> top_k_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> non_zero_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> pad_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> depth_to_space_cases(DType type, DType output_type,
                                                RandomValues& random);
std::vector<ReferenceCase> space_to_depth_cases(DType type, DType output_type,
                                                RandomValues& random);
std::vector<ReferenceCase> resize_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> upsample_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> shape_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> size_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> range_cases(DType type, DType output_type, RandomValues& random);

}  // namespace hxrt::detail
