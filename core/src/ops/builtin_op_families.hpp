// The builtin ops, one function per family; add_builtin_ops calls them all. Each family's
// schemas are in <family>_ops.cpp and their reference cases (hxrt/op_reference.hpp) in
// <family>_reference.cpp: the schema points at its op's cases.
#pragma once

#include <vector>

#include "ops/op_schema.hpp"

namespace hxrt::detail {

void add_matmul_op(OpRegistry& registry);        // MatMul
void add_gemm_op(OpRegistry& registry);          // Gemm
void add_einsum_op(OpRegistry& registry);        // Einsum
void add_conv_ops(OpRegistry& registry);         // Conv
void add_conv_transpose_op(OpRegistry& registry);  // ConvTranspose
// MaxPool, AveragePool, GlobalMaxPool, GlobalAveragePool
void add_pool_ops(OpRegistry& registry);
// BatchNormalization, LayerNormalization, InstanceNormalization
void add_norm_ops(OpRegistry& registry);
void add_elementwise_ops(OpRegistry& registry);  // Add, Sub, Mul, Div, AddN, Relu
// Exp, Log, Sqrt, Reciprocal, Erf, Tanh, Sigmoid, Floor, Ceil, Round, Neg, Abs, Sign
void add_unary_ops(OpRegistry& registry);
void add_array_ops(OpRegistry& registry);        // Cast, Identity, Fill
void add_reduction_ops(OpRegistry& registry);    // Sum

// The reference cases of each builtin op (ReferenceCasesFn).
std::vector<ReferenceCase> matmul_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> gemm_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> einsum_cases(DType type, DType output_type, RandomValues& random);
std::vector<ReferenceCase> conv_cases(DType type, DType output_type, RandomValues& random);
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

}  // namespace hxrt::detail
