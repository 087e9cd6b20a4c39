// MatMulBias: a layer's product and bias as one kernel, Y = activation(A x B + bias), with A a
// stack of rows [..., K], B a matrix [K, N] and the bias a row of N. What the fusion pass
// makes of a MatMul whose only reader adds a bias (the linear layers exporters write as MatMul
// then Add, as torch does for every nn.Linear of more than two dimensions); Gemm cannot carry
// those, since its A is a matrix. A is dense, so a kernel may read it as one matrix of
// [rows, K] and run its Gemm with C = bias.
#include <string>

#include "ops/builtin_op_families.hpp"
#include "ops/fused_activation.hpp"
#include "ops/infer_checks.hpp"

namespace hxrt::detail {
namespace {

void infer_matmul_bias(const InferContext& call, TensorMeta* outputs) {
  require_inputs_in(call, floating_dtypes());
  require_same_dtype(call);
  const Shape& a = call.inputs[0].shape;
  const Shape& b = call.inputs[1].shape;
  const Shape& bias = call.inputs[2].shape;
  if (a.rank() < 2) {
    reject_call(call, "A has shape " + a.to_string() + "; it is [..., M, K], of rank 2 or "
                      "more (a vector's product is MatMul's)");
  }
  if (b.rank() != 2) {
    reject_call(call, "B has shape " + b.to_string() + "; it is a matrix [K, N]");
  }
  if (a[a.rank() - 1] != b[0]) {
    reject_call(call, "incompatible shapes " + a.to_string() + " and " + b.to_string() +
                          ": inner dimensions " + std::to_string(a[a.rank() - 1]) + " and " +
                          std::to_string(b[0]) + " differ");
  }
  Shape y = a;
  y.set_dim(y.rank() - 1, b[1]);
  bool row = bias.rank() >= 1 && bias.rank() <= y.rank() && bias[bias.rank() - 1] == b[1];
  for (int axis = 0; row && axis + 1 < bias.rank(); ++axis) row = bias[axis] == 1;
  if (!row) {
    reject_call(call, "the bias has shape " + bias.to_string() + "; it is a row of B's " +
                          std::to_string(b[1]) + " columns ([N], or with more leading axes of "
                          "extent 1, no more than Y's " + std::to_string(y.rank()) + ")");
  }
  check_fused_activation(call, false);
  outputs[0].dtype = call.inputs[0].dtype;
  outputs[0].shape = y;
}

}  // namespace

void add_matmul_bias_op(OpRegistry& registry) {
  OpSchema schema{"MatMulBias", 3, 3, 1, infer_matmul_bias, ""};
  schema.summary = "A linear layer in one kernel: Y = activation(A x B + bias), what the fusion "
                   "pass makes of a MatMul of a matrix B whose only reader adds a bias of B's "
                   "columns, and of an activation after that, on devices whose plugins "
                   "register MatMulBias.";
  schema.inputs = {
      {"A", "T", floating_dtypes(), "[..., M, K]: a matrix, or a stack of them", false},
      {"B", "T", floating_dtypes(), "[K, N]", false},
      {"bias", "T", floating_dtypes(),
       "[N], or of more leading axes of extent 1: added to every row of the product", false},
  };
  schema.outputs = {{"Y", "T", floating_dtypes(), "[..., M, N]: A's shape with N last", false}};
  add_activation_attrs(schema, "the sum", false);
  schema.shape_rule =
      "A has rank 2 or more and its last extent is B's first, K; B has rank 2; the bias's last "
      "extent is N and every other 1, with rank at most Y's. Y is A's shape with the last "
      "extent N. Any extent may be 0. The product and sum accumulate in f32 (f64 for f64), "
      "and the activation is applied before Y is rounded.";
  schema.reference_cases = matmul_bias_cases;
  registry.add(std::move(schema));
}

}  // namespace hxrt::detail
