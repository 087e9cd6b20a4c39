// TopK: the k largest (or smallest) elements along an axis, with their indices, as ONNX's TopK
// 11 defines it. k comes as an attribute: ONNX's input K, which the importer requires to be
// known at load.
#include <string>

#include "ops/axis_checks.hpp"
#include "ops/builtin_op_families.hpp"
#include "ops/infer_checks.hpp"

namespace hxrt::detail {
namespace {

void infer_top_k(const InferContext& call, TensorMeta* outputs) {
  require_numeric_inputs(call);
  required_attr(call, "k", "an int");
  int_flag(call, "largest", 1);
  int_flag(call, "sorted", 1);
  const Shape& x = call.inputs[0].shape;
  const int axis = resolve_axis(call, "axis", attr_int(call, "axis", -1), x.rank());
  const int64_t k = attr_int(call, "k", 0);
  if (k < 0 || k > x[axis]) {
    reject_call(call, "attribute 'k' is " + std::to_string(k) + ", but axis " +
                          std::to_string(axis) + " of X " + x.to_string() + " has " +
                          std::to_string(x[axis]) + " elements; k is from 0 to that");
  }
  std::vector<int64_t> dims = x.to_vector();
  dims[static_cast<size_t>(axis)] = k;
  outputs[0] = {call.inputs[0].dtype, Shape(dims)};
  outputs[1] = {DType::kI64, Shape(dims)};
}

}  // namespace

void add_top_k_op(OpRegistry& registry) {
  OpSchema top_k{"TopK", 1, 1, 2, infer_top_k, ""};
  top_k.summary = "The k largest (or smallest) elements of X along axis, in order, with their "
                  "indices.";
  top_k.inputs = {{"X", "T", numeric_dtypes(), "a tensor of rank >= 1", false}};
  top_k.outputs = {
      {"Values", "T", numeric_dtypes(), "X's shape with k along axis", false},
      {"Indices", "int64", {DType::kI64}, "each value's index along axis, of Values' shape",
       false},
  };
  top_k.attrs = {
      {"k", AttrType::kInt, true, std::nullopt,
       "how many elements to take along axis, from 0 to its extent (ONNX's input K)"},
      {"axis", AttrType::kInt, false, AttrValue(int64_t{-1}),
       "the axis to take them along, from -rank to rank-1 (negative counts from the end)"},
      {"largest", AttrType::kInt, false, AttrValue(int64_t{1}),
       "1: the largest elements, from the largest down; 0: the smallest, from the smallest "
       "up"},
      {"sorted", AttrType::kInt, false, AttrValue(int64_t{1}),
       "1: in that order; 0: ONNX leaves the order open, and hxrt keeps it all the same"},
  };
  top_k.shape_rule =
      "Values and Indices have X's shape with k along axis; k is from 0 to that axis' extent. "
      "Of equal elements the one of the lower index comes first; NaN is larger than any "
      "number.";
  top_k.reference_cases = top_k_cases;
  top_k.onnx.versions = {11};
  top_k.onnx.attribute_inputs = {{1, "k", 10}};
  registry.add(std::move(top_k));
}

}  // namespace hxrt::detail
