#include <string>

#include "ops/builtin_op_families.hpp"
#include "ops/fused_activation.hpp"
#include "ops/infer_checks.hpp"

namespace hxrt::detail {

namespace {

// transA and transB are ONNX's int flags: 0 or 1.
bool trans_flag(const InferContext& call, const char* name) {
  const int64_t value = attr_int(call, name, 0);
  if (value != 0 && value != 1) {
    reject_call(call, std::string("attribute '") + name + "' is " + std::to_string(value) +
                          "; it is 0 (use the matrix as it is) or 1 (use its transpose)");
  }
  return value == 1;
}

void require_matrix(const InferContext& call, size_t input, const char* label) {
  const Shape& shape = call.inputs[input].shape;
  if (shape.rank() != 2) {
    reject_call(call, std::string("input ") + label + " has shape " + shape.to_string() +
                          " (rank " + std::to_string(shape.rank()) +
                          "); Gemm multiplies rank-2 matrices (MatMul takes vectors and "
                          "stacks)");
  }
}

// y = alpha * op(A) x op(B) + beta * C, C broadcast one way to [M, N].
void infer_gemm(const InferContext& call, TensorMeta* outputs) {
  require_inputs_in(call, floating_dtypes());
  require_same_dtype(call);
  const bool trans_a = trans_flag(call, "transA");
  const bool trans_b = trans_flag(call, "transB");
  attr_float(call, "alpha", 1.0);  // type checks
  attr_float(call, "beta", 1.0);
  require_matrix(call, 0, "A");
  require_matrix(call, 1, "B");
  const Shape& a = call.inputs[0].shape;
  const Shape& b = call.inputs[1].shape;
  const int64_t m = a[trans_a ? 1 : 0];
  const int64_t k_of_a = a[trans_a ? 0 : 1];
  const int64_t k_of_b = b[trans_b ? 1 : 0];
  const int64_t n = b[trans_b ? 0 : 1];
  if (k_of_a != k_of_b) {
    reject_call(call, "incompatible shapes " + a.to_string() + " and " + b.to_string() +
                          ": inner dimensions " + std::to_string(k_of_a) + " and " +
                          std::to_string(k_of_b) + " differ (transA=" +
                          std::to_string(trans_a) + ", transB=" + std::to_string(trans_b) + ")");
  }
  const Shape y{m, n};
  if (call.num_inputs == 3) {
    const Shape& c = call.inputs[2].shape;
    bool fits = c.rank() <= 2;
    for (int axis = 0; fits && axis < c.rank(); ++axis) {
      const int64_t extent = c[axis];
      fits = extent == 1 || extent == y[axis + 2 - c.rank()];
    }
    if (!fits) {
      reject_call(call, "input C has shape " + c.to_string() + ", which does not broadcast to "
                            "the product's shape " + y.to_string() + "; C has rank 2 at most "
                            "and each extent is 1 or the product's, aligned at the last axes");
    }
  }
  outputs[0].dtype = call.inputs[0].dtype;
  outputs[0].shape = y;
}

void infer_fused_gemm(const InferContext& call, TensorMeta* outputs) {
  infer_gemm(call, outputs);
  check_fused_activation(call);
}

OpSchema gemm_schema() {
  OpSchema schema{"Gemm", 2, 3, 1, infer_gemm, ""};
  schema.summary = "General matrix multiplication: Y = alpha * op(A) x op(B) + beta * C.";
  schema.inputs = {
      {"A", "T", floating_dtypes(), "[M, K], or [K, M] with transA", false},
      {"B", "T", floating_dtypes(), "[K, N], or [N, K] with transB", false},
      {"C", "T", floating_dtypes(),
       "optional: added, scaled by beta; broadcasts one way to [M, N] (absent: 0)", false},
  };
  schema.outputs = {{"Y", "T", floating_dtypes(), "[M, N]", false}};
  schema.attrs = {
      {"alpha", AttrType::kFloat, false, AttrValue(1.0), "the product's scale"},
      {"beta", AttrType::kFloat, false, AttrValue(1.0), "C's scale"},
      {"transA", AttrType::kInt, false, AttrValue(int64_t{0}), "1: use A's transpose"},
      {"transB", AttrType::kInt, false, AttrValue(int64_t{0}), "1: use B's transpose"},
  };
  schema.shape_rule =
      "A and B have rank 2 and equal inner extents K after the transposes; Y is [M, N]. C, "
      "when given, has rank 2 at most and broadcasts to [M, N] (each extent 1 or Y's, aligned "
      "at the last axes). Any extent may be 0; with K = 0 the product is all zeros. The "
      "product accumulates in f32 (f64 for f64).";
  schema.reference_cases = gemm_cases;
  return schema;
}

}  // namespace

void add_gemm_op(OpRegistry& registry) {
  OpSchema schema = gemm_schema();
  schema.onnx.versions = {13};
  // ONNX Runtime's contrib op of the same name and attributes.
  OpSchema fused = fused_schema(schema, "FusedGemm", infer_fused_gemm, fused_gemm_cases);
  registry.add(std::move(schema));
  registry.add(std::move(fused));
}

}  // namespace hxrt::detail
