// ONNX's reductions (ReduceSum ... ReduceLogSumExp): one function of the elements of each set
// the axes select, with ONNX's attributes. They differ only in the function, its value on an
// empty set and the dtypes they accept, so each op is one row of a table.
#include <optional>
#include <string>

#include "ops/builtin_op_families.hpp"
#include "ops/infer_checks.hpp"
#include "ops/reduction_axes.hpp"

namespace hxrt::detail {
namespace {

struct ReduceOp {
  const char* name;
  const char* y;      // what each element of y is, of the set of x's elements it reduces
  const char* empty;  // its value on an empty set
  ReferenceCasesFn reference_cases;
  std::vector<int> onnx_versions;
  int axes_since = 18;  // the ONNX version from which axes is an input
  bool with_bool = false;
};

// ONNX passes no axes, or an empty list, for "every axis" (or none, with noop_with_empty_axes).
void infer_reduce(const InferContext& call, TensorMeta* outputs) {
  const OpSchema& schema = *call.schema;
  require_inputs_in(call, schema.inputs[0].dtypes);
  const Shape& input = call.inputs[0].shape;
  const std::vector<int64_t> axes = attr_ints(call, "axes", {});
  const bool noop = attr_bool(call, "noop_with_empty_axes", false);
  const std::vector<bool> reduced =
      axes.empty() ? std::vector<bool>(static_cast<size_t>(input.rank()), !noop)
                   : checked_axes(call, input, axes);
  outputs[0].dtype = call.inputs[0].dtype;
  outputs[0].shape = reduced_shape(input, reduced, attr_bool(call, "keepdims", true));
}

OpSchema reduce_schema(const ReduceOp& op) {
  std::vector<DType> dtypes = numeric_dtypes();
  if (op.with_bool) dtypes.push_back(DType::kBool);
  OpSchema schema{op.name, 1, 1, 1, infer_reduce, ""};
  schema.summary = std::string("Reduces x along the given axes (all of them by default) to ") +
                   op.y + ".";
  schema.inputs = {{"data", "T", dtypes, "any tensor", false}};
  schema.outputs = {{"reduced", "T", dtypes, op.y, false}};
  schema.attrs = {
      {"axes", AttrType::kInts, false, std::nullopt,
       "the axes to reduce, each from -rank to rank-1 (negative ones count from the end), none "
       "twice; absent or []: every axis, or none when noop_with_empty_axes is true"},
      {"keepdims", AttrType::kBool, false, AttrValue(true),
       "keep each reduced axis as an axis of extent 1"},
      {"noop_with_empty_axes", AttrType::kBool, false, AttrValue(false),
       "with axes absent or [], reduce no axis instead of every axis: each element is a set "
       "of its own, and y is the op's function of each element (ReduceL2 gives |x|)"},
  };
  schema.shape_rule =
      std::string("reduced is data's shape without the reduced axes, or with extent 1 in their "
                  "place when keepdims is true (the default); reducing every axis gives a "
                  "scalar, or [1, ..., 1]. Over an empty set the result is ") +
      op.empty + ". Floating results are accumulated in float for float16 and bfloat16 and in "
      "double for float32 and float64; integer results are computed in the integer dtype, "
      "wrapping modulo 2^bits, and one that ONNX computes in floating point (the mean, a root "
      "or a logarithm) is truncated toward zero.";
  schema.reference_cases = op.reference_cases;
  schema.onnx.versions = op.onnx_versions;
  schema.onnx.attribute_inputs = {{1, "axes", op.axes_since}};
  return schema;
}

}  // namespace

void add_reduce_ops(OpRegistry& registry) {
  const ReduceOp ops[] = {
      {"ReduceSum", "the sum of its elements", "0", reduce_sum_cases, {13}, 13},
      {"ReduceMean", "the mean of its elements", "undefined (NaN for floats, 0 for integers)",
       reduce_mean_cases, {13, 18}},
      {"ReduceProd", "the product of its elements", "1", reduce_prod_cases, {13, 18}},
      {"ReduceMax", "the largest of its elements (false < true)",
       "-inf, or the dtype's smallest value (false for bool)", reduce_max_cases,
       {13, 18, 20}, 18, true},
      {"ReduceMin", "the smallest of its elements (false < true)",
       "+inf, or the dtype's largest value (true for bool)", reduce_min_cases,
       {13, 18, 20}, 18, true},
      {"ReduceL1", "the sum of its elements' absolute values", "0", reduce_l1_cases, {13, 18}},
      {"ReduceL2", "the square root of the sum of its elements' squares", "0",
       reduce_l2_cases, {13, 18}},
      {"ReduceSumSquare", "the sum of its elements' squares", "0", reduce_sum_square_cases,
       {13, 18}},
      {"ReduceLogSumExp", "log(sum(exp(x))) of its elements, computed as max + log(sum(exp(x "
       "- max))) so that no exp overflows", "-inf", reduce_log_sum_exp_cases, {13, 18}},
  };
  for (const ReduceOp& op : ops) registry.add(reduce_schema(op));
}

}  // namespace hxrt::detail
