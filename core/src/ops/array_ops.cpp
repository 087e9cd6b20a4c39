#include <optional>
#include <string>

#include "hxrt/error.hpp"
#include "ops/builtin_op_families.hpp"
#include "ops/infer_checks.hpp"

namespace hxrt::detail {

namespace {

void infer_cast(const InferContext& call, TensorMeta* outputs) {
  required_attr(call, "dtype", "the dtype to convert to");
  const DType target = attr_dtype(call, "dtype", DType::kF32);
  require_known_dtype(call, "dtype", target);
  int_flag(call, "saturate", 1);
  outputs[0].dtype = target;
  outputs[0].shape = call.inputs[0].shape;
}

void infer_identity(const InferContext& call, TensorMeta* outputs) { outputs[0] = call.inputs[0]; }

void infer_fill(const InferContext& call, TensorMeta* outputs) {
  required_attr(call, "shape", "a list of ints");
  const std::vector<int64_t> dims = attr_ints(call, "shape", {});
  required_attr(call, "value", "a float");
  attr_float(call, "value", 0.0);  // checks the type; the kernel reads the value
  const DType dtype = attr_dtype(call, "dtype", DType::kF32);
  require_known_dtype(call, "dtype", dtype);
  try {
    outputs[0].shape = Shape(dims);
  } catch (const Error& error) {
    reject_call(call, std::string("attribute 'shape': ") + error.what());
  }
  outputs[0].dtype = dtype;
}

}  // namespace

void add_array_ops(OpRegistry& registry) {
  OpSchema cast{"Cast", 1, 1, 1, infer_cast, ""};
  cast.summary = "Converts every element of x to the dtype given by the attribute dtype.";
  cast.type_parameter.output_dtype_attribute = "dtype";
  cast.inputs = {{"x", "T", all_dtypes(), "any tensor", false}};
  cast.outputs = {{"y", "dtype", all_dtypes(), "x converted element by element", false}};
  cast.attrs = {{"dtype", AttrType::kDType, true, std::nullopt, "the dtype to convert to"},
                {"saturate", AttrType::kInt, false, AttrValue(int64_t{1}),
                 "for an 8-bit float dtype: 1, a value beyond its largest gives the largest; "
                 "0, infinity or NaN"}};
  cast.shape_rule =
      "y has x's shape. Floating to integer truncates toward zero, saturates at the integer's "
      "limits and turns NaN into 0; anything to a floating dtype rounds to nearest even (too "
      "large: infinity); integer to integer wraps modulo 2^bits; to bool: nonzero is true; "
      "from bool: 1 and 0. To an 8-bit float, a value beyond its largest finite one "
      "(infinity included) gives that largest one of its sign with saturate 1 (the default), "
      "and with saturate 0 infinity (float8_e5m2) or NaN (the others, which have none); NaN "
      "stays NaN, and the uz dtypes have no -0.";
  cast.reference_cases = cast_cases;
  cast.onnx.versions = {13, 19, 21};
  cast.onnx.renamed_attrs = {{"to", "dtype"}};
  registry.add(std::move(cast));

  OpSchema identity{"Identity", 1, 1, 1, infer_identity, ""};
  identity.summary = "Copies x: y = x.";
  identity.inputs = {{"x", "T", all_dtypes(), "any tensor", false}};
  identity.outputs = {{"y", "T", all_dtypes(), "a copy of x", false}};
  identity.shape_rule = "y has x's dtype and shape.";
  identity.reference_cases = identity_cases;
  identity.onnx.versions = {14, 16, 19, 21};
  registry.add(std::move(identity));

  OpSchema fill{"Fill", 0, 0, 1, infer_fill, ""};
  fill.summary = "Makes a tensor of the given shape and dtype with every element set to value.";
  fill.type_parameter.source = TypeParameter::Source::kAttribute;
  fill.type_parameter.attribute = "dtype";
  fill.outputs = {{"y", "T", all_dtypes(), "the filled tensor", false}};
  fill.attrs = {
      {"shape", AttrType::kInts, true, std::nullopt,
       "the output's extents, each >= 0, at most 8 of them ([] makes a scalar)"},
      {"value", AttrType::kFloat, true, std::nullopt,
       "every element's value (an int is accepted too), converted to dtype as Cast converts"},
      {"dtype", AttrType::kDType, false, AttrValue(DType::kF32), "the output's dtype: T"},
  };
  fill.shape_rule = "y has the shape of the attribute shape and the dtype of the attribute dtype.";
  fill.reference_cases = fill_cases;
  registry.add(std::move(fill));
}

}  // namespace hxrt::detail
