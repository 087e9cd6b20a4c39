#include <string>

#include "hxrt/error.hpp"

#include "ops/broadcast.hpp"
#include "ops/builtin_op_families.hpp"
#include "ops/infer_checks.hpp"

namespace hxrt::detail {

namespace {

const char* bool_text(bool value) { return value ? "true" : "false"; }

// One operand's matrix part, after the transpose: a vector has only its k axis.
struct MatrixPart {
  int64_t outer;  // m of a, n of b; absent (-1) for a vector
  int64_t k;
  Shape batch;    // the axes before the matrix
};

MatrixPart matrix_part(const InferContext& call, size_t input, bool transpose, bool is_a) {
  const Shape& shape = call.inputs[input].shape;
  const int rank = shape.rank();
  if (rank == 0) {
    reject_call(call, std::string("input ") + (is_a ? "a" : "b") +
                          " is a scalar; MatMul multiplies vectors (rank 1), matrices (rank 2) "
                          "and stacks of matrices (rank 3 and more); scale with Mul instead");
  }
  if (rank == 1) return {-1, shape[0], Shape{}};
  // a is [m, k] (transposed: [k, m]); b is [k, n] (transposed: [n, k]).
  const bool outer_first = is_a != transpose;
  const int64_t first = shape[rank - 2];
  const int64_t second = shape[rank - 1];
  return {outer_first ? first : second, outer_first ? second : first,
          Shape(shape.data(), rank - 2)};
}

// ONNX's MatMul (NumPy's matmul) with optional transposes of the last two axes.
void infer_matmul(const InferContext& call, TensorMeta* outputs) {
  require_numeric_inputs(call);
  require_same_dtype(call);
  const bool transpose_a = attr_bool(call, "transpose_a", false);
  const bool transpose_b = attr_bool(call, "transpose_b", false);
  const MatrixPart a = matrix_part(call, 0, transpose_a, true);
  const MatrixPart b = matrix_part(call, 1, transpose_b, false);
  if (a.k != b.k) {
    reject_call(call, "incompatible shapes " + call.inputs[0].shape.to_string() + " and " +
                          call.inputs[1].shape.to_string() + ": inner dimensions " +
                          std::to_string(a.k) + " and " + std::to_string(b.k) +
                          " differ (transpose_a=" + bool_text(transpose_a) +
                          ", transpose_b=" + bool_text(transpose_b) + ")");
  }
  // The batch axes broadcast; the result's rank is at most the larger operand's.
  Shape out = broadcast_shapes(call, a.batch, b.batch);
  try {
    if (a.outer >= 0) out.push_back(a.outer);
    if (b.outer >= 0) out.push_back(b.outer);
  } catch (const Error& error) {
    reject_call(call, "the product of " + call.inputs[0].shape.to_string() + " and " +
                          call.inputs[1].shape.to_string() + " is too large: " + error.what());
  }
  outputs[0].dtype = call.inputs[0].dtype;
  outputs[0].shape = out;
}

}  // namespace

void add_matmul_op(OpRegistry& registry) {
  OpSchema schema{"MatMul", 2, 2, 1, infer_matmul, ""};
  schema.summary =
      "Matrix product as NumPy's matmul (ONNX MatMul): c = op(a) x op(b) for matrices, vectors "
      "and stacks of matrices, op transposing the last two axes where asked.";
  schema.inputs = {
      {"a", "T", numeric_dtypes(),
       "the left operand: a vector [k], a matrix [m, k] ([k, m] with transpose_a), or a stack "
       "[..., m, k] of them",
       false},
      {"b", "T", numeric_dtypes(),
       "the right operand, of a's dtype: a vector [k], a matrix [k, n] ([n, k] with "
       "transpose_b), or a stack [..., k, n] of them",
       false},
  };
  schema.outputs = {
      {"c", "T", numeric_dtypes(), "the product, [..., m, n] less the axes of vector operands",
       false}};
  schema.attrs = {
      {"transpose_a", AttrType::kBool, false, AttrValue(false),
       "multiply by a's transpose (its last two axes swapped); no effect on a vector"},
      {"transpose_b", AttrType::kBool, false, AttrValue(false),
       "multiply by b's transpose (its last two axes swapped); no effect on a vector"},
  };
  schema.shape_rule =
      "Neither operand is a scalar. A vector a is a row [1, k] and a vector b a column [k, 1], "
      "whose added axis the result drops. Operands of rank 3 and more are stacks of matrices "
      "over their leading (batch) axes, which broadcast as NumPy's do; a matrix is a stack of "
      "one. The inner extents k agree after the transposes; c is the broadcast batch shape, "
      "then m (unless a is a vector), then n (unless b is a vector). Any extent may be 0; with "
      "k = 0, c is all zeros. Integer products and sums wrap modulo 2^bits.";
  schema.onnx.versions = {13};
  schema.reference_cases = matmul_cases;
  schema.onnx.versions = {13};
  registry.add(std::move(schema));
}

}  // namespace hxrt::detail
