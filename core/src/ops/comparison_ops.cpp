// Comparisons (Equal, Less, Greater, LessOrEqual, GreaterOrEqual) and logic (Not, And, Or):
// element-wise tests whose output is bool. The binary ones broadcast as NumPy's.
#include <string>

#include "ops/broadcast.hpp"
#include "ops/builtin_op_families.hpp"
#include "ops/infer_checks.hpp"

namespace hxrt::detail {

namespace {

const std::vector<DType>& bool_dtype() {
  static const std::vector<DType> dtypes = {DType::kBool};
  return dtypes;
}

void infer_test(const InferContext& call, TensorMeta* outputs) {
  require_same_dtype(call);
  outputs[0].dtype = DType::kBool;
  outputs[0].shape = broadcast_shapes(call, call.inputs[0].shape, call.inputs[1].shape);
}

void infer_equal(const InferContext& call, TensorMeta* outputs) {
  require_inputs_in(call, all_dtypes());
  infer_test(call, outputs);
}

void infer_ordering(const InferContext& call, TensorMeta* outputs) {
  require_numeric_inputs(call);
  infer_test(call, outputs);
}

void infer_logical(const InferContext& call, TensorMeta* outputs) {
  require_inputs_in(call, bool_dtype());
  if (call.num_inputs == 1) {
    outputs[0] = call.inputs[0];
  } else {
    infer_test(call, outputs);
  }
}

struct BinaryTest {
  const char* name;
  const char* summary;
  const char* c;                          // what C holds
  const std::vector<DType>& (*dtypes)();  // those of A and B, which `infer` accepts
  InferFn infer;
  ReferenceCasesFn reference_cases;
  std::vector<int> onnx_versions;
};

OpSchema binary_test_schema(const BinaryTest& op) {
  const std::vector<DType>& dtypes = op.dtypes();
  const bool logical = &dtypes == &bool_dtype();
  OpSchema schema{op.name, 2, 2, 1, op.infer, ""};
  schema.broadcasts = true;
  schema.summary = op.summary;
  schema.inputs = {{"A", "T", dtypes, "the first operand", false},
                   {"B", "T", dtypes, "the second operand, of A's dtype", false}};
  schema.outputs = {{"C", "bool", bool_dtype(), op.c, false}};
  schema.shape_rule =
      "C has the shape A and B broadcast to, as NumPy broadcasts: aligned at their last axes "
      "(a missing leading axis counts as 1), each pair of extents is equal or one of them is 1, "
      "and C takes the larger; [2, 3] and [3] give [2, 3], [2, 3] and [4] are refused. Kernels "
      "receive A and B already broadcast to C's shape, with stride 0 along the axes where they "
      "repeat.";
  if (!logical) {
    schema.shape_rule += " Floating operands compare as IEEE 754 does: NaN is unequal to "
                         "everything, itself included, and neither less nor greater; -0 equals "
                         "0. f16 and bf16 compare exactly.";
  }
  schema.reference_cases = op.reference_cases;
  schema.onnx.versions = op.onnx_versions;
  return schema;
}

}  // namespace

void add_comparison_ops(OpRegistry& registry) {
  const BinaryTest tests[] = {
      {"Equal", "Whether A equals B, element by element.", "true where A == B", all_dtypes,
       infer_equal, equal_cases, {13, 19}},
      {"Less", "Whether A is less than B, element by element.", "true where A < B",
       numeric_dtypes, infer_ordering, less_cases, {13}},
      {"Greater", "Whether A is greater than B, element by element.", "true where A > B",
       numeric_dtypes, infer_ordering, greater_cases, {13}},
      {"LessOrEqual", "Whether A is at most B, element by element.", "true where A <= B",
       numeric_dtypes, infer_ordering, less_or_equal_cases, {16}},
      {"GreaterOrEqual", "Whether A is at least B, element by element.", "true where A >= B",
       numeric_dtypes, infer_ordering, greater_or_equal_cases, {16}},
      {"And", "Logical and of A and B, element by element.", "true where A and B are both true",
       bool_dtype, infer_logical, and_cases, {7}},
      {"Or", "Logical or of A and B, element by element.", "true where A or B is true",
       bool_dtype, infer_logical, or_cases, {7}},
  };
  for (const BinaryTest& test : tests) registry.add(binary_test_schema(test));

  OpSchema logical_not{"Not", 1, 1, 1, infer_logical, ""};
  logical_not.summary = "Logical negation of X, element by element.";
  logical_not.inputs = {{"X", "T", bool_dtype(), "any bool tensor", false}};
  logical_not.outputs = {{"Y", "T", bool_dtype(), "true where X is false", false}};
  logical_not.shape_rule = "Y has X's shape.";
  logical_not.reference_cases = not_cases;
  logical_not.onnx.versions = {1};
  registry.add(std::move(logical_not));
}

}  // namespace hxrt::detail
