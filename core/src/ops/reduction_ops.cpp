#include <optional>

#include "ops/builtin_op_families.hpp"
#include "ops/infer_checks.hpp"
#include "ops/reduction_axes.hpp"

namespace hxrt::detail {

namespace {

// Which axes of `input` Sum reduces: absent "axes" means all of them, an empty list none.
std::vector<bool> reduced_axes(const InferContext& call, const Shape& input) {
  if (!call.attrs.find("axes")) return std::vector<bool>(static_cast<size_t>(input.rank()), true);
  return checked_axes(call, input, attr_ints(call, "axes", {}));
}

void infer_sum(const InferContext& call, TensorMeta* outputs) {
  require_numeric_inputs(call);
  const Shape& input = call.inputs[0].shape;
  outputs[0].dtype = call.inputs[0].dtype;
  outputs[0].shape =
      reduced_shape(input, reduced_axes(call, input), attr_bool(call, "keep_dims", false));
}

}  // namespace

void add_reduction_ops(OpRegistry& registry) {
  OpSchema sum{"Sum", 1, 1, 1, infer_sum, ""};
  sum.summary = "Sums the elements of x along the given axes (all of them by default).";
  sum.inputs = {{"x", "T", numeric_dtypes(), "any tensor", false}};
  sum.outputs = {{"y", "T", numeric_dtypes(), "the sums", false}};
  sum.attrs = {
      {"axes", AttrType::kInts, false, std::nullopt,
       "the axes to reduce, each from -rank to rank-1 (negative ones count from the end), none "
       "twice; absent: every axis; []: none (y is a copy of x)"},
      {"keep_dims", AttrType::kBool, false, AttrValue(false),
       "keep each reduced axis as an axis of extent 1"},
  };
  sum.shape_rule = "y is x's shape without the reduced axes, or with extent 1 in their place "
                   "when keep_dims is true; reducing every axis gives a scalar. The sum over an "
                   "axis of extent 0 is 0. Integer sums wrap modulo 2^bits.";
  sum.reference_cases = sum_cases;
  registry.add(std::move(sum));
}

}  // namespace hxrt::detail
