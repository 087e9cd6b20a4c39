#include <string>

#include "ops/builtin_op_families.hpp"
#include "ops/infer_checks.hpp"

namespace hxrt::detail {

namespace {

const char* bool_text(bool value) { return value ? "true" : "false"; }

void require_matrix(const InferContext& call, size_t input, const char* label) {
  const Shape& shape = call.inputs[input].shape;
  if (shape.rank() != 2) {
    reject_call(call, std::string("input ") + label + " has shape " + shape.to_string() +
                          " (rank " + std::to_string(shape.rank()) +
                          "); MatMul multiplies rank-2 matrices");
  }
}

// a [m, k] times b [k, n] after the optional transposes; the output is [m, n].
void infer_matmul(const InferContext& call, TensorMeta* outputs) {
  require_numeric_inputs(call);
  require_same_dtype(call);
  const bool transpose_a = attr_bool(call, "transpose_a", false);
  const bool transpose_b = attr_bool(call, "transpose_b", false);
  require_matrix(call, 0, "a");
  require_matrix(call, 1, "b");
  const Shape& a = call.inputs[0].shape;
  const Shape& b = call.inputs[1].shape;
  const int64_t m = transpose_a ? a[1] : a[0];
  const int64_t k_of_a = transpose_a ? a[0] : a[1];
  const int64_t k_of_b = transpose_b ? b[1] : b[0];
  const int64_t n = transpose_b ? b[0] : b[1];
  if (k_of_a != k_of_b) {
    reject_call(call, "incompatible shapes " + a.to_string() + " and " + b.to_string() +
                          ": inner dimensions " + std::to_string(k_of_a) + " and " +
                          std::to_string(k_of_b) + " differ (transpose_a=" +
                          bool_text(transpose_a) + ", transpose_b=" + bool_text(transpose_b) +
                          ")");
  }
  outputs[0].dtype = call.inputs[0].dtype;
  outputs[0].shape = Shape{m, n};
}

}  // namespace

void add_matmul_op(OpRegistry& registry) {
  OpSchema schema{"MatMul", 2, 2, 1, infer_matmul, ""};
  schema.summary = "Multiplies two matrices: c = op(a) x op(b), op transposing where asked.";
  schema.inputs = {
      {"a", "T", numeric_dtypes(), "the left matrix, rank 2: [m, k], or [k, m] with transpose_a",
       false},
      {"b", "T", numeric_dtypes(),
       "the right matrix, rank 2, of a's dtype: [k, n], or [n, k] with transpose_b", false},
  };
  schema.outputs = {{"c", "T", numeric_dtypes(), "the product, [m, n]", false}};
  schema.attrs = {
      {"transpose_a", AttrType::kBool, false, AttrValue(false), "multiply by a's transpose"},
      {"transpose_b", AttrType::kBool, false, AttrValue(false), "multiply by b's transpose"},
  };
  schema.shape_rule = "a and b have rank 2 (no batches, no broadcasting) and equal inner "
                      "dimensions k after the transposes; c is [m, n]. Any extent may be 0; "
                      "with k = 0, c is all zeros. Integer products and sums wrap modulo "
                      "2^bits.";
  schema.reference_cases = matmul_cases;
  schema.onnx.versions = {13};
  registry.add(std::move(schema));
}

}  // namespace hxrt::detail
