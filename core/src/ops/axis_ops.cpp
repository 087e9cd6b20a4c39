// The ops of the reduction family that work along one axis: ArgMax and ArgMin, which reduce
// it to an index, Softmax and LogSoftmax, which normalise along it, and CumSum.
#include <optional>
#include <string>

#include "ops/builtin_op_families.hpp"
#include "ops/infer_checks.hpp"
#include "ops/reduction_axes.hpp"

namespace hxrt::detail {
namespace {

void infer_arg_reduce(const InferContext& call, TensorMeta* outputs) {
  require_numeric_inputs(call);
  const Shape& input = call.inputs[0].shape;
  const int axis = checked_axis(call, input, "axis", attr_int(call, "axis", 0));
  if (input[axis] == 0) {
    reject_call(call, "axis " + std::to_string(axis) + " of input of shape " + input.to_string() +
                          " is empty, and an empty axis has no index to give");
  }
  std::vector<bool> reduced(static_cast<size_t>(input.rank()), false);
  reduced[static_cast<size_t>(axis)] = true;
  outputs[0].dtype = DType::kI64;
  outputs[0].shape = reduced_shape(input, reduced, attr_bool(call, "keepdims", true));
}

OpSchema arg_reduce_schema(const char* name, const char* which, ReferenceCasesFn cases) {
  OpSchema schema{name, 1, 1, 1, infer_arg_reduce, ""};
  schema.summary = std::string("The index of the ") + which + " element of data along axis.";
  schema.inputs = {{"data", "T", numeric_dtypes(), "a tensor of rank 1 or more", false}};
  schema.outputs = {{"reduced", "int64", {DType::kI64},
                     std::string("for each line along axis, the index of its ") + which +
                         " element",
                     false}};
  schema.attrs = {
      {"axis", AttrType::kInt, false, AttrValue(int64_t{0}),
       "the axis to reduce, from -rank to rank-1 (negative counts from the end)"},
      {"keepdims", AttrType::kBool, false, AttrValue(true),
       "keep the reduced axis as an axis of extent 1"},
      {"select_last_index", AttrType::kBool, false, AttrValue(false),
       std::string("of several ") + which + " elements, give the last one's index instead of "
       "the first one's"},
  };
  schema.shape_rule = "reduced is data's shape without axis, or with extent 1 in its place when "
                      "keepdims is true (the default). The axis must not be empty. NaN is "
                      "neither larger nor smaller than any element.";
  schema.reference_cases = cases;
  schema.onnx.versions = {13};
  return schema;
}

void infer_softmax(const InferContext& call, TensorMeta* outputs) {
  require_inputs_in(call, floating_dtypes());
  checked_axis(call, call.inputs[0].shape, "axis", attr_int(call, "axis", -1));
  outputs[0] = call.inputs[0];
}

OpSchema softmax_schema(const char* name, const char* output, ReferenceCasesFn cases) {
  OpSchema schema{name, 1, 1, 1, infer_softmax, ""};
  schema.summary = std::string("Normalises input along axis: ") + output + ".";
  schema.inputs = {{"input", "T", floating_dtypes(), "a tensor of rank 1 or more", false}};
  schema.outputs = {{"output", "T", floating_dtypes(), output, false}};
  schema.attrs = {{"axis", AttrType::kInt, false, AttrValue(int64_t{-1}),
                   "the axis to normalise along, from -rank to rank-1 (negative counts from "
                   "the end)"}};
  schema.shape_rule = "output has input's shape. Computed as exp(x - max) with the maximum of "
                      "each line subtracted first, so that no exp overflows; float16 and "
                      "bfloat16 compute in float, float32 and float64 in double.";
  schema.reference_cases = cases;
  schema.onnx.versions = {13};
  return schema;
}

void infer_cum_sum(const InferContext& call, TensorMeta* outputs) {
  require_numeric_inputs(call);
  required_attr(call, "axis", "an int");
  checked_axis(call, call.inputs[0].shape, "axis", attr_int(call, "axis", 0));
  outputs[0] = call.inputs[0];
}

OpSchema cum_sum_schema() {
  OpSchema schema{"CumSum", 1, 1, 1, infer_cum_sum, ""};
  schema.summary = "Cumulative sums of x along axis: each element of y is the sum of the "
                   "elements of its line up to it.";
  schema.inputs = {{"x", "T", numeric_dtypes(), "a tensor of rank 1 or more", false}};
  schema.outputs = {{"y", "T", numeric_dtypes(), "the cumulative sums", false}};
  schema.attrs = {
      {"axis", AttrType::kInt, true, std::nullopt,
       "the axis to sum along, from -rank to rank-1 (negative counts from the end)"},
      {"exclusive", AttrType::kBool, false, AttrValue(false),
       "leave each element out of its own sum: the first sum is 0"},
      {"reverse", AttrType::kBool, false, AttrValue(false),
       "sum from the end of the axis toward its start"},
  };
  schema.shape_rule = "y has x's shape. Floating sums are accumulated in float for float16 "
                      "and bfloat16 and in double for float32 and float64; integer sums wrap "
                      "modulo 2^bits.";
  schema.reference_cases = cum_sum_cases;
  schema.onnx.versions = {14};
  schema.onnx.attribute_inputs = {{1, "axis", 11}};
  return schema;
}

}  // namespace

void add_axis_ops(OpRegistry& registry) {
  registry.add(arg_reduce_schema("ArgMax", "largest", arg_max_cases));
  registry.add(arg_reduce_schema("ArgMin", "smallest", arg_min_cases));
  registry.add(softmax_schema("Softmax", "exp(x) / the sum of exp(x) along axis", softmax_cases));
  registry.add(softmax_schema("LogSoftmax", "x - log(the sum of exp(x) along axis)",
                              log_softmax_cases));
  registry.add(cum_sum_schema());
}

}  // namespace hxrt::detail
