#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "builtin_op_calls.hpp"
#include "hxrt/error.hpp"
#include "ops/op_schema.hpp"

using hxrt::Attrs;
using hxrt::AttrType;
using hxrt::DType;
using hxrt::Error;
using hxrt::StatusCode;
using hxrt::TypeParameter;
using hxrt::detail::InferContext;
using hxrt::detail::OpRegistry;
using hxrt::detail::OpSchema;
using hxrt::detail::TensorMeta;
using hxrt_test_ops::builtin_schema;
using hxrt_test_ops::f32;
using hxrt_test_ops::meta;
using Catch::Contains;

namespace {

// T of one call of an op of `registry`, after shape inference, as the eager path computes it.
DType t_of(const OpSchema& schema, const std::vector<TensorMeta>& inputs,
           const Attrs& attrs = {}) {
  const InferContext call{schema.name, inputs.data(), inputs.size(), attrs};
  std::vector<TensorMeta> outputs(static_cast<size_t>(schema.num_outputs));
  hxrt::detail::infer_outputs(schema, call, outputs.data());
  return hxrt::detail::type_parameter(schema, call, outputs.data());
}

DType t_of(const std::string& op, const std::vector<TensorMeta>& inputs,
           const Attrs& attrs = {}) {
  return t_of(builtin_schema(op), inputs, attrs);
}

void copy_first(const InferContext& call, TensorMeta* out) { out[0] = call.inputs[0]; }

// What registering `schema` throws; "accepted" when it does not.
std::string registration_error(OpSchema schema) {
  OpRegistry registry;
  try {
    registry.add(std::move(schema));
  } catch (const Error& error) {
    CHECK(error.code() == StatusCode::kInvalidArgument);
    return error.what();
  }
  return "accepted";
}

}  // namespace

TEST_CASE("every core op declares where T comes from") {
  using Source = TypeParameter::Source;
  for (const char* op : {"MatMul", "Add", "Sub", "Mul", "Div", "AddN", "Relu", "Identity",
                         "Sum", "Cast"}) {
    INFO(op);
    const TypeParameter& t = builtin_schema(op).type_parameter;
    CHECK(t.source == Source::kInput);
    CHECK(t.input == 0);
  }
  CHECK(builtin_schema("Cast").type_parameter.output_dtype_attribute == "dtype");
  CHECK(builtin_schema("MatMul").type_parameter.output_dtype_attribute.empty());
  const TypeParameter& fill = builtin_schema("Fill").type_parameter;
  CHECK(fill.source == Source::kAttribute);
  CHECK(fill.attribute == "dtype");
}

TEST_CASE("T of a call comes from the input or attribute its schema names") {
  CHECK(t_of("MatMul", {meta(DType::kF64, {2, 2}), meta(DType::kF64, {2, 2})}) == DType::kF64);
  for (const char* op : {"Add", "Sub", "Mul", "Div"}) {
    CHECK(t_of(op, {meta(DType::kI32, {2, 3}), meta(DType::kI32, {3})}) == DType::kI32);
  }
  CHECK(t_of("AddN", {meta(DType::kF16, {2}), meta(DType::kF16, {2})}) == DType::kF16);
  CHECK(t_of("Relu", {meta(DType::kBF16, {2})}) == DType::kBF16);
  CHECK(t_of("Identity", {meta(DType::kBool, {2})}) == DType::kBool);
  CHECK(t_of("Sum", {meta(DType::kI64, {2, 2})}) == DType::kI64);
  // Cast's T is its input's dtype, not the dtype it converts to.
  CHECK(t_of("Cast", {meta(DType::kI32, {2})}, {{"dtype", DType::kF16}}) == DType::kI32);
  // Fill's T is its dtype attribute, and the attribute's declared default when it is absent.
  const Attrs fill{{"shape", std::vector<int64_t>{2}}, {"value", 1.0}};
  Attrs int_fill = fill;
  int_fill.set("dtype", DType::kI64);
  CHECK(t_of("Fill", {}, int_fill) == DType::kI64);
  CHECK(t_of("Fill", {}, fill) == DType::kF32);
}

TEST_CASE("an absent T attribute gives the default the schema declares, not a convention") {
  OpSchema zeros{"Zeros", 0, 0, 1,
                 [](const InferContext&, TensorMeta* out) { out[0] = TensorMeta{DType::kF16, {}}; },
                 "p"};
  zeros.type_parameter.source = TypeParameter::Source::kAttribute;
  zeros.type_parameter.attribute = "dtype";
  zeros.attrs = {{"dtype", AttrType::kDType, false, hxrt::AttrValue(DType::kI32), "T"}};
  CHECK(t_of(zeros, {}) == DType::kI32);
  CHECK(t_of(zeros, {}, {{"dtype", DType::kF64}}) == DType::kF64);
  CHECK_THROWS_WITH(t_of(zeros, {}, {{"dtype", int64_t{1}}}),
                    Contains("Zeros: attribute 'dtype' must be a dtype, got int (1)"));
}

TEST_CASE("a custom op's T is the input it names, or its first output's dtype") {
  OpSchema second{"Pick", 2, 2, 1, copy_first, "p"};
  second.type_parameter.input = 1;
  CHECK(t_of(second, {meta(DType::kF32, {2}), meta(DType::kI64, {2})}) == DType::kI64);

  OpSchema source{"Source", 0, 0, 1,
                  [](const InferContext&, TensorMeta* out) { out[0] = TensorMeta{DType::kBF16, {}}; },
                  "p"};
  source.type_parameter.source = TypeParameter::Source::kOutput;
  CHECK(t_of(source, {}) == DType::kBF16);
}

TEST_CASE("a schema whose T is carried by nothing every call has is refused") {
  OpSchema optional_input{"P_Gelu", 1, 2, 1, copy_first, "p"};
  optional_input.type_parameter.input = 1;
  CHECK_THAT(registration_error(optional_input),
             Contains("op 'P_Gelu' from plugin 'p': type_input 1 is not an input every call has; "
                      "expected 0 to 0 (an input every call has), or -1 for T from the first "
                      "output"));
  OpSchema negative{"P_Gelu", 1, 1, 1, copy_first, "p"};
  negative.type_parameter.input = -3;
  CHECK_THAT(registration_error(negative), Contains("type_input -3 is not an input"));
  const OpSchema no_inputs{"Zeros", 0, 0, 1, copy_first, "p"};
  CHECK_THAT(registration_error(no_inputs),
             Contains("type_input 0 is not an input every call has; the op may be called "
                      "without inputs, so T must come from its first output (type_input -1)"));

  OpSchema undeclared{"Zeros", 0, 0, 1, copy_first, "p"};
  undeclared.type_parameter.source = TypeParameter::Source::kAttribute;
  undeclared.type_parameter.attribute = "dtype";
  CHECK_THAT(registration_error(undeclared),
             Contains("T is carried by attribute 'dtype', which the op does not declare"));
  OpSchema not_dtype = undeclared;
  not_dtype.attrs = {{"dtype", AttrType::kInt, false, hxrt::AttrValue(int64_t{1}), ""}};
  CHECK_THAT(registration_error(not_dtype),
             Contains("attribute 'dtype' carries T, so it must be a dtype attribute that is "
                      "required or has a dtype default"));
  OpSchema no_default = undeclared;
  no_default.attrs = {{"dtype", AttrType::kDType, false, std::nullopt, ""}};
  CHECK_THAT(registration_error(no_default), Contains("required or has a dtype default"));

  OpSchema cast_like{"Convert", 1, 1, 1, copy_first, "p"};
  cast_like.type_parameter.output_dtype_attribute = "to";
  CHECK_THAT(registration_error(cast_like),
             Contains("the outputs' dtype is carried by attribute 'to', which the op does not "
                      "declare"));
  cast_like.attrs = {{"to", AttrType::kDType, true, std::nullopt, ""}};
  CHECK(registration_error(cast_like) == "accepted");
}
