// NonZero: the coordinates of the elements of X that are not zero, as ONNX's NonZero 9 and 13
// define it. How many there are depends on X's values, not its shape: the op's output extents
// are known only when it runs (OpSchema::extents_at_run), and shape inference gives the most
// there can be, every element of X.
#include "ops/builtin_op_families.hpp"
#include "ops/infer_checks.hpp"

namespace hxrt::detail {
namespace {

void infer_non_zero(const InferContext& call, TensorMeta* outputs) {
  require_inputs_in(call, all_dtypes());
  const Shape& x = call.inputs[0].shape;
  // A scalar has one coordinate of rank 0 per nonzero element: ONNX gives [1, count] for it,
  // as NumPy's nonzero of a 0-d array (after atleast_1d) does.
  const int64_t rows = x.rank() == 0 ? 1 : x.rank();
  outputs[0] = {DType::kI64, Shape{rows, x.num_elements()}};
}

}  // namespace

void add_non_zero_op(OpRegistry& registry) {
  OpSchema non_zero{"NonZero", 1, 1, 1, infer_non_zero, ""};
  non_zero.summary = "The coordinates of X's elements that are not zero, in row-major order.";
  non_zero.extents_at_run = true;
  non_zero.inputs = {{"X", "T", all_dtypes(), "any tensor; an element is zero when it equals "
                                              "0 (false; -0.0 too; NaN is not zero)",
                      false}};
  non_zero.outputs = {{"Y", "int64", {DType::kI64},
                       "[rank of X (1 for a scalar), count]: column j is the coordinate of the "
                       "j-th nonzero element",
                       false}};
  non_zero.shape_rule =
      "Y is [rank of X, count], count being how many elements are not zero: known only when "
      "the op runs. Shape inference gives count's most, the number of X's elements, and a "
      "graph compiles what reads Y when a run has computed it. A scalar X gives [1, 0 or 1] "
      "with coordinate 0.";
  non_zero.reference_cases = non_zero_cases;
  non_zero.onnx.versions = {9, 13};
  registry.add(std::move(non_zero));
}

}  // namespace hxrt::detail
