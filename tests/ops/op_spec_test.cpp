// Every core op's specification is complete, and true to shape inference: the dtypes it lists
// are the ones inference accepts, and the defaults it declares are the ones inference applies.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "builtin_op_calls.hpp"
#include "hxrt/error.hpp"
#include "ops/op_schema.hpp"

using hxrt::Attrs;
using hxrt::AttrValue;
using hxrt::DType;
using hxrt::OpArgInfo;
using hxrt::OpAttrInfo;
using hxrt::Shape;
using hxrt::detail::OpSchema;
using hxrt::detail::TensorMeta;
using hxrt_test_ops::builtin_registry;
using hxrt_test_ops::builtin_schema;
using hxrt_test_ops::infer;
using hxrt_test_ops::meta;

namespace {

// One call of each core op that inference accepts, with its required attributes and no
// optional ones. Non-square shapes, so that a wrong default (a transpose) would change it.
struct SampleCall {
  std::vector<Shape> shapes;
  Attrs attrs;
};

const std::map<std::string, SampleCall>& sample_calls() {
  const Shape x{2, 3};
  static const std::map<std::string, SampleCall> calls = {
      {"Add", {{x, Shape{3}}, {}}},
      {"Sub", {{x, x}, {}}},
      {"Mul", {{x, x}, {}}},
      {"Div", {{x, x}, {}}},
      {"AddN", {{x, x, x}, {}}},
      {"Relu", {{x}, {}}},
      {"Identity", {{x}, {}}},
      {"Sum", {{x}, {}}},
      {"MatMul", {{x, Shape{3, 4}}, {}}},
      {"Cast", {{x}, {{"dtype", DType::kF16}}}},
      {"Fill", {{}, {{"shape", std::vector<int64_t>{2, 3}}, {"value", 1.0}}}},
  };
  return calls;
}

std::vector<TensorMeta> inputs_of(const SampleCall& call, DType dtype) {
  std::vector<TensorMeta> inputs;
  for (const Shape& shape : call.shapes) inputs.push_back(meta(dtype, shape));
  return inputs;
}

bool accepts(const std::string& op, const SampleCall& call, DType dtype) {
  try {
    infer(op, inputs_of(call, dtype), call.attrs);
    return true;
  } catch (const hxrt::Error&) {
    return false;
  }
}

void check_arg(const OpArgInfo& arg) {
  INFO("argument " << arg.name);
  CHECK_FALSE(arg.name.empty());
  CHECK_FALSE(arg.type.empty());
  CHECK_FALSE(arg.dtypes.empty());
  CHECK_FALSE(arg.description.empty());
}

}  // namespace

TEST_CASE("every core op has a complete specification") {
  for (const OpSchema* schema : builtin_registry().all()) {
    INFO(schema->name);
    REQUIRE(sample_calls().count(schema->name) == 1);
    CHECK_FALSE(schema->summary.empty());
    CHECK_FALSE(schema->shape_rule.empty());
    // One entry per input every call has; a variadic last input stands for the rest.
    const bool variadic = !schema->inputs.empty() && schema->inputs.back().variadic;
    CHECK(static_cast<int>(schema->inputs.size()) == (variadic ? 1 : schema->min_inputs));
    CHECK((schema->max_inputs < 0) == variadic);
    CHECK(static_cast<int>(schema->outputs.size()) == schema->num_outputs);
    for (const OpArgInfo& arg : schema->inputs) check_arg(arg);
    for (const OpArgInfo& arg : schema->outputs) check_arg(arg);
    for (const OpAttrInfo& attr : schema->attrs) {
      INFO("attribute " << attr.name);
      CHECK_FALSE(attr.name.empty());
      CHECK_FALSE(attr.description.empty());
      CHECK_FALSE((attr.required && attr.default_value));
      if (attr.default_value) CHECK(hxrt::attr_type_of(*attr.default_value) == attr.type);
    }
    CHECK(schema->broadcasts == (schema->name == "Add" || schema->name == "Sub" ||
                                 schema->name == "Mul" || schema->name == "Div"));
  }
}

TEST_CASE("the dtypes a spec lists for the inputs are the ones inference accepts") {
  for (const auto& entry : sample_calls()) {
    const OpSchema& schema = builtin_schema(entry.first);
    if (schema.inputs.empty()) continue;
    for (DType dtype : hxrt::kAllDTypes) {
      INFO(entry.first << " with " << hxrt::dtype_name(dtype));
      const std::vector<DType>& listed = schema.inputs[0].dtypes;
      const bool in_spec = std::find(listed.begin(), listed.end(), dtype) != listed.end();
      CHECK(accepts(entry.first, entry.second, dtype) == in_spec);
    }
  }
}

TEST_CASE("the outputs' dtypes a spec lists are the ones inference gives") {
  for (const auto& entry : sample_calls()) {
    const OpSchema& schema = builtin_schema(entry.first);
    for (DType dtype : hxrt::kAllDTypes) {
      if (!accepts(entry.first, entry.second, dtype)) continue;
      const DType out = infer(entry.first, inputs_of(entry.second, dtype), entry.second.attrs).dtype;
      const std::vector<DType>& listed = schema.outputs[0].dtypes;
      INFO(entry.first << " with " << hxrt::dtype_name(dtype) << " gives "
                       << hxrt::dtype_name(out));
      CHECK(std::find(listed.begin(), listed.end(), out) != listed.end());
    }
  }
}

TEST_CASE("a declared default is what inference does when the attribute is absent") {
  for (const auto& entry : sample_calls()) {
    const OpSchema& schema = builtin_schema(entry.first);
    const std::vector<TensorMeta> inputs = inputs_of(entry.second, DType::kF32);
    const TensorMeta absent = infer(entry.first, inputs, entry.second.attrs);
    for (const OpAttrInfo& attr : schema.attrs) {
      if (!attr.default_value) continue;
      INFO(entry.first << " attribute " << attr.name);
      Attrs given = entry.second.attrs;
      given.set(attr.name, *attr.default_value);
      const TensorMeta present = infer(entry.first, inputs, given);
      // Sum's keep_dims, MatMul's transposes and Fill's dtype each change this call's result
      // when set to anything but their true default.
      CHECK(present.dtype == absent.dtype);
      CHECK(present.shape == absent.shape);
    }
  }
}

TEST_CASE("required attributes are required by inference") {
  for (const auto& entry : sample_calls()) {
    const OpSchema& schema = builtin_schema(entry.first);
    for (const OpAttrInfo& attr : schema.attrs) {
      if (!attr.required) continue;
      INFO(entry.first << " attribute " << attr.name);
      Attrs without;
      for (const auto& item : entry.second.attrs.items()) {
        if (item.first != attr.name) without.set(item.first, item.second);
      }
      CHECK_THROWS_WITH(infer(entry.first, inputs_of(entry.second, DType::kF32), without),
                        Catch::Contains("missing required attribute '" + attr.name + "'"));
    }
  }
}
