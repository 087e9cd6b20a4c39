#include "ops/builtin_op_families.hpp"
#include "ops/builtin_registry.hpp"
#include "ops/op_schema.hpp"

namespace hxrt::detail {

void add_builtin_ops(OpRegistry& registry) {
  add_matmul_op(registry);
  add_gemm_op(registry);
  add_matmul_bias_op(registry);
  add_attention_op(registry);
  add_einsum_op(registry);
  add_conv_ops(registry);
  add_conv_transpose_op(registry);
  add_pool_ops(registry);
  add_channel_block_ops(registry);
  add_norm_ops(registry);
  add_elementwise_ops(registry);
  add_unary_ops(registry);
  add_array_ops(registry);
  add_reduction_ops(registry);
  add_selection_ops(registry);
  add_comparison_ops(registry);
  add_activation_ops(registry);
  add_reduce_ops(registry);
  add_axis_ops(registry);
  add_shape_ops(registry);
  add_indexing_ops(registry);
  add_split_op(registry);
  add_collective_ops(registry);
  add_top_k_op(registry);
  add_non_zero_op(registry);
  add_layout_ops(registry);
  add_resize_ops(registry);
  add_generated_ops(registry);
}

const OpRegistry& builtin_registry() {
  static const OpRegistry registry = [] {
    OpRegistry ops;
    add_builtin_ops(ops);
    return ops;
  }();
  return registry;
}

}  // namespace hxrt::detail
