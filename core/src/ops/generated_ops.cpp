// The ops whose outputs come from shapes and attributes alone, reading no input element:
// Shape and Size describe their input's shape as int64 values, Range counts from start to
// limit. Eager users need Shape and Size as ops; a graph importer folds them where shapes are
// static.
#include <cmath>
#include <optional>
#include <string>

#include <hxcommon/slice_bounds.hpp>

#include "ops/builtin_op_families.hpp"
#include "ops/infer_checks.hpp"

namespace hxrt::detail {

namespace {

void infer_shape(const InferContext& call, TensorMeta* outputs) {
  const int rank = call.inputs[0].shape.rank();
  const int64_t start = attr_int(call, "start", 0);
  const int64_t end = attr_int(call, "end", rank);
  outputs[0] = {DType::kI64, Shape{hxcommon::slice_axis(rank, start, end, 1).count}};
}

void infer_size(const InferContext&, TensorMeta* outputs) {
  outputs[0] = {DType::kI64, Shape{}};
}

void infer_range(const InferContext& call, TensorMeta* outputs) {
  const DType dtype = attr_dtype(call, "dtype", DType::kF32);
  require_known_dtype(call, "dtype", dtype);
  if (!is_numeric(dtype)) {
    reject_call(call, std::string("attribute 'dtype' is ") + dtype_name(dtype) +
                          "; Range makes numbers: " + "float32, float64, float16, bfloat16, "
                          "int32 or int64");
  }
  const char* names[] = {"start", "limit", "delta"};
  double values[3] = {};
  for (int i = 0; i < 3; ++i) {
    required_attr(call, names[i], "a float");
    values[i] = attr_float(call, names[i], 0);
    if (!std::isfinite(values[i])) {
      reject_call(call, std::string("attribute '") + names[i] + "' is not finite");
    }
  }
  if (values[2] == 0) reject_call(call, "attribute 'delta' is 0; the step must be nonzero");
  const double count = std::max(std::ceil((values[1] - values[0]) / values[2]), 0.0);
  if (count >= 0x1p62) {
    reject_call(call, "from start " + std::to_string(values[0]) + " to limit " +
                          std::to_string(values[1]) + " by delta " + std::to_string(values[2]) +
                          " is too many elements");
  }
  outputs[0] = {dtype, Shape{static_cast<int64_t>(count)}};
}

}  // namespace

void add_generated_ops(OpRegistry& registry) {
  OpSchema shape{"Shape", 1, 1, 1, infer_shape, ""};
  shape.summary = "x's extents, or those from start to end, as an int64 vector.";
  shape.inputs = {{"x", "T", all_dtypes(), "any tensor; its elements are not read", false}};
  shape.outputs = {{"y", "int64", {DType::kI64}, "x's extents from axis start to end", false}};
  shape.attrs = {
      {"start", AttrType::kInt, false, AttrValue(int64_t{0}),
       "the first axis; negative counts from the end"},
      {"end", AttrType::kInt, false, std::nullopt,
       "the axis before which to stop (exclusive); negative counts from the end; absent: the "
       "rank"},
  };
  shape.shape_rule = "y is [end - start], or [0], after start and end are counted from the end "
                     "when negative and clamped to [0, rank].";
  shape.reference_cases = shape_cases;
  shape.onnx.versions = {13, 15, 19, 21};
  registry.add(std::move(shape));

  OpSchema size{"Size", 1, 1, 1, infer_size, ""};
  size.summary = "How many elements x has, as an int64 scalar.";
  size.inputs = {{"x", "T", all_dtypes(), "any tensor; its elements are not read", false}};
  size.outputs = {{"y", "int64", {DType::kI64}, "the product of x's extents (1 for a scalar)",
                   false}};
  size.shape_rule = "y is an int64 scalar.";
  size.reference_cases = size_cases;
  size.onnx.versions = {13, 19, 21};
  registry.add(std::move(size));

  OpSchema range{"Range", 0, 0, 1, infer_range, ""};
  range.summary = "The numbers start, start + delta, start + 2 delta, ... up to limit "
                  "(exclusive).";
  range.type_parameter.source = TypeParameter::Source::kAttribute;
  range.type_parameter.attribute = "dtype";
  range.outputs = {{"y", "T", numeric_dtypes(), "the sequence, element i = start + i * delta",
                    false}};
  range.attrs = {
      {"start", AttrType::kFloat, true, std::nullopt, "the first number"},
      {"limit", AttrType::kFloat, true, std::nullopt,
       "where the sequence stops, not included"},
      {"delta", AttrType::kFloat, true, std::nullopt, "the step, nonzero; negative counts down"},
      {"dtype", AttrType::kDType, false, AttrValue(DType::kF32),
       "the output's dtype, T (an ONNX importer sets it from the dtype of ONNX's inputs)"},
  };
  range.shape_rule = "y is [max(ceil((limit - start) / delta), 0)], computed in double; each "
                     "element start + i * delta is computed in double and converted to dtype "
                     "as Cast converts.";
  range.reference_cases = range_cases;
  range.onnx.versions = {11};
  range.onnx.attribute_inputs = {{0, "start", 11}, {1, "limit", 11}, {2, "delta", 11}};
  registry.add(std::move(range));
}

}  // namespace hxrt::detail
