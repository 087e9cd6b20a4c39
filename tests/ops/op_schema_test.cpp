#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "hxrt/error.hpp"
#include "builtin_op_calls.hpp"
#include "ops/op_schema.hpp"

using hxrt::Attrs;
using hxrt::DType;
using hxrt::Error;
using hxrt::Shape;
using hxrt::StatusCode;
using hxrt::detail::InferContext;
using hxrt::detail::OpRegistry;
using hxrt::detail::OpSchema;
using hxrt::detail::TensorMeta;
using Catch::Contains;
using Catch::Equals;
using Catch::StartsWith;

namespace {

using namespace hxrt_test_ops;

const std::string kNumericDTypes =
    "float32, float64, float16, bfloat16, int32, int64, int8, uint8, int16, uint16, uint32, uint64";

}  // namespace

TEST_CASE("the builtin ops are registered, sorted by name") {
  std::vector<std::string> names;
  for (const OpSchema* schema : builtin_registry().all()) {
    names.push_back(schema->name);
    CHECK(schema->owner.empty());
  }
  CHECK(std::is_sorted(names.begin(), names.end()));
  CHECK(std::adjacent_find(names.begin(), names.end()) == names.end());
  for (const char* op : {"Add", "AddN", "Cast", "Div", "Fill", "Identity", "MatMul", "Mul",
                         "Relu", "Sub", "Sum"}) {
    CHECK(std::find(names.begin(), names.end(), op) != names.end());
  }
  for (const std::string& name : names) {
    REQUIRE(builtin_registry().find(name) != nullptr);
    CHECK(builtin_registry().find(name)->name == name);
  }
  CHECK(builtin_registry().find("matmul") == nullptr);
  CHECK(builtin_registry().find("Conv2D") == nullptr);
  CHECK(builtin_registry().find("") == nullptr);
}

TEST_CASE("a custom op joins the registry in name order") {
  OpRegistry registry;
  hxrt::detail::add_builtin_ops(registry);
  registry.add(OpSchema{"Sinc", 1, 1, 1, [](const InferContext& call, TensorMeta* out) {
                          out[0] = call.inputs[0];
                        }, "sim"});
  REQUIRE(registry.find("Sinc") != nullptr);
  CHECK(registry.find("Sinc")->owner == "sim");
  const auto all = registry.all();
  REQUIRE(all.size() == builtin_registry().size() + 1);
  for (size_t i = 1; i < all.size(); ++i) CHECK(all[i - 1]->name < all[i]->name);
}

TEST_CASE("a name that is taken is an error naming both owners") {
  OpRegistry registry;
  hxrt::detail::add_builtin_ops(registry);
  const auto copy_infer = [](const InferContext& call, TensorMeta* out) {
    out[0] = call.inputs[0];
  };
  try {
    registry.add(OpSchema{"MatMul", 2, 2, 1, copy_infer, "sim"});
    FAIL("accepted");
  } catch (const Error& error) {
    CHECK(error.code() == StatusCode::kAlreadyExists);
    CHECK_THAT(error.what(),
               Contains("op 'MatMul' from plugin 'sim' is already registered by the core"));
  }
  registry.add(OpSchema{"Sinc", 1, 1, 1, copy_infer, "sim"});
  try {
    registry.add(OpSchema{"Sinc", 1, 1, 1, copy_infer, "other"});
    FAIL("accepted");
  } catch (const Error& error) {
    CHECK(error.code() == StatusCode::kAlreadyExists);
    CHECK_THAT(error.what(), Contains("from plugin 'other' is already registered by plugin 'sim'"));
  }
}

TEST_CASE("schemas the ABI's rules reject are errors") {
  OpRegistry registry;
  const auto copy_infer = [](const InferContext& call, TensorMeta* out) {
    out[0] = call.inputs[0];
  };
  const auto message_of = [&](OpSchema schema) {
    try {
      registry.add(std::move(schema));
    } catch (const Error& error) {
      CHECK(error.code() == StatusCode::kInvalidArgument);
      return std::string(error.what());
    }
    return std::string("accepted");
  };
  CHECK_THAT(message_of(OpSchema{"", 1, 1, 1, copy_infer, "p"}), Contains("[A-Z][A-Za-z0-9_]*"));
  CHECK_THAT(message_of(OpSchema{"gelu", 1, 1, 1, copy_infer, "p"}),
             Contains("op 'gelu' from plugin 'p': an op name must match"));
  CHECK_THAT(message_of(OpSchema{"Ge lu", 1, 1, 1, copy_infer, "p"}),
             Contains("an op name must match"));
  CHECK_THAT(message_of(OpSchema{"Sinc", -1, 1, 1, copy_infer, "p"}),
             Contains("min_inputs -1 and max_inputs 1 are not an arity"));
  CHECK_THAT(message_of(OpSchema{"Sinc", 2, 1, 1, copy_infer, "p"}), Contains("not an arity"));
  CHECK_THAT(message_of(OpSchema{"Sinc", 1, -2, 1, copy_infer, "p"}), Contains("not an arity"));
  CHECK_THAT(message_of(OpSchema{"Sinc", 1, 1, 0, copy_infer, "p"}), Contains("num_outputs is 0"));
  CHECK_THAT(message_of(OpSchema{"Sinc", 1, 1, 1, nullptr, "p"}),
             Contains("no shape-inference function"));
  CHECK(registry.all().empty());
}

TEST_CASE("arity is checked before inference, naming the op and the arity it expects") {
  CHECK_THAT(infer_error("Relu", {f32({2}), f32({2})}), Equals("Relu expects 1 input, got 2"));
  CHECK_THAT(infer_error("Relu", {}), Equals("Relu expects 1 input, got 0"));
  CHECK_THAT(infer_error("MatMul", {f32({2, 2})}), Equals("MatMul expects 2 inputs, got 1"));
  CHECK_THAT(infer_error("AddN", {}), Equals("AddN expects at least 1 input, got 0"));
  CHECK_THAT(infer_error("Fill", {f32({2})}, {{"shape", std::vector<int64_t>{2}}, {"value", 1.0}}),
             Equals("Fill expects 0 inputs, got 1"));

  // Shape inference is a plain function (no captures): it reports through a static.
  static bool inferred;
  inferred = false;
  const OpSchema ranged{"Pack", 1, 3, 1,
                        [](const InferContext&, TensorMeta*) { inferred = true; }, "p"};
  const std::vector<TensorMeta> four(4, f32({1}));
  const Attrs none;
  const std::string op = "Pack";
  const InferContext call{op, four.data(), four.size(), none};
  TensorMeta output;
  try {
    hxrt::detail::infer_outputs(ranged, call, &output);
    FAIL("accepted");
  } catch (const Error& error) {
    CHECK_THAT(error.what(), Equals("Pack expects between 1 and 3 inputs, got 4"));
  }
  CHECK_FALSE(inferred);
  const InferContext two{op, four.data(), 2, none};
  hxrt::detail::infer_outputs(ranged, two, &output);
  CHECK(inferred);
}

TEST_CASE("MatMul shapes") {
  SECTION("plain") {
    const TensorMeta out = infer("MatMul", {f32({2, 3}), f32({3, 4})});
    CHECK(out.dtype == DType::kF32);
    CHECK(out.shape == Shape{2, 4});
  }
  SECTION("transpose_a") {
    CHECK(infer("MatMul", {f32({3, 2}), f32({3, 4})}, {{"transpose_a", true}}).shape ==
          Shape{2, 4});
  }
  SECTION("transpose_b") {
    CHECK(infer("MatMul", {f32({2, 3}), f32({4, 3})}, {{"transpose_b", true}}).shape ==
          Shape{2, 4});
  }
  SECTION("both transposed") {
    CHECK(infer("MatMul", {f32({3, 2}), f32({4, 3})},
                {{"transpose_a", true}, {"transpose_b", true}})
              .shape == Shape{2, 4});
  }
  SECTION("empty dimensions are legal") {
    CHECK(infer("MatMul", {f32({0, 3}), f32({3, 4})}).shape == Shape{0, 4});
    CHECK(infer("MatMul", {f32({2, 0}), f32({0, 3})}).shape == Shape{2, 3});
    CHECK(infer("MatMul", {f32({2, 3}), f32({3, 0})}).shape == Shape{2, 0});
  }
  SECTION("vectors lose their added axis") {
    CHECK(infer("MatMul", {f32({3}), f32({3, 4})}).shape == Shape{4});
    CHECK(infer("MatMul", {f32({2, 3}), f32({3})}).shape == Shape{2});
    CHECK(infer("MatMul", {f32({3}), f32({3})}).shape == Shape{});
    CHECK(infer("MatMul", {f32({3}), f32({5, 2, 3, 4})}).shape == Shape{5, 2, 4});
    CHECK(infer("MatMul", {f32({3}), f32({4, 3})}, {{"transpose_b", true}}).shape == Shape{4});
  }
  SECTION("stacks broadcast their batch axes") {
    CHECK(infer("MatMul", {f32({2, 3, 4}), f32({4, 5})}).shape == Shape{2, 3, 5});
    CHECK(infer("MatMul", {f32({2, 1, 3, 4}), f32({6, 4, 5})}).shape == Shape{2, 6, 3, 5});
    CHECK(infer("MatMul", {f32({2, 4, 3}), f32({2, 5, 4})},
                {{"transpose_a", true}, {"transpose_b", true}})
              .shape == Shape{2, 3, 5});
    CHECK(infer("MatMul", {f32({0, 3, 4}), f32({4, 5})}).shape == Shape{0, 3, 5});
  }
  SECTION("every numeric dtype") {
    for (DType dtype : {DType::kF64, DType::kF16, DType::kBF16, DType::kI32, DType::kI64}) {
      CHECK(infer("MatMul", {meta(dtype, {1, 1}), meta(dtype, {1, 1})}).dtype == dtype);
    }
  }
}

TEST_CASE("MatMul errors") {
  CHECK_THAT(infer_error("MatMul", {f32({2, 3}), f32({2, 3})}),
             Equals("MatMul: incompatible shapes [2, 3] and [2, 3]: inner dimensions 3 and 2 "
                    "differ (transpose_a=false, transpose_b=false)"));
  CHECK_THAT(infer_error("MatMul", {f32({2, 3}), f32({3, 4})}, {{"transpose_a", true}}),
             Equals("MatMul: incompatible shapes [2, 3] and [3, 4]: inner dimensions 2 and 3 "
                    "differ (transpose_a=true, transpose_b=false)"));
  CHECK_THAT(infer_error("MatMul", {f32({2, 3, 4}), f32({3, 3})}),
             Equals("MatMul: incompatible shapes [2, 3, 4] and [3, 3]: inner dimensions 4 and 3 "
                    "differ (transpose_a=false, transpose_b=false)"));
  CHECK_THAT(infer_error("MatMul", {f32({2, 3, 4}), f32({3, 4, 5})}),
             Contains("MatMul: operands could not be broadcast together with shapes [2] and "
                      "[3]"));
  CHECK_THAT(infer_error("MatMul", {f32({}), f32({3})}),
             StartsWith("MatMul: input a is a scalar; MatMul multiplies vectors"));
  CHECK_THAT(infer_error("MatMul", {meta(DType::kBool, {2, 2}), meta(DType::kBool, {2, 2})}),
             Equals("MatMul: input 0 has dtype bool; MatMul accepts " + kNumericDTypes +
                    " (convert with Cast first)"));
  CHECK_THAT(infer_error("MatMul", {f32({2, 2}), meta(DType::kI32, {2, 2})}),
             Equals("MatMul: input 1 has dtype int32 but input 0 has float32; MatMul needs all "
                    "inputs of one dtype (convert with Cast first)"));
  CHECK_THAT(infer_error("MatMul", {f32({2, 2}), f32({2, 2})}, {{"transpose_a", int64_t{1}}}),
             Equals("MatMul: attribute 'transpose_a' must be a bool, got int (1)"));
  CHECK_THAT(infer_error("MatMul", {f32({2, 2}), f32({2, 2})},
                         {{"transpose_b", std::string("yes")}}),
             Equals("MatMul: attribute 'transpose_b' must be a bool, got string (\"yes\")"));
}

TEST_CASE("AddN sums inputs of one dtype and shape") {
  CHECK(infer("AddN", {f32({2, 2})}).shape == Shape{2, 2});
  const TensorMeta out =
      infer("AddN", {meta(DType::kI32, {3}), meta(DType::kI32, {3}), meta(DType::kI32, {3})});
  CHECK(out.dtype == DType::kI32);
  CHECK(out.shape == Shape{3});
  CHECK_THAT(infer_error("AddN", {f32({2}), f32({2}), f32({3})}),
             Equals("AddN: input 2 has shape [3] but input 0 has shape [2]; AddN needs all "
                    "inputs of one shape"));
  CHECK_THAT(infer_error("AddN", {f32({2}), meta(DType::kF16, {2})}),
             Contains("AddN: input 1 has dtype float16 but input 0 has float32"));
  CHECK_THAT(infer_error("AddN", {meta(DType::kBool, {2})}),
             Contains("AddN: input 0 has dtype bool; AddN accepts " + kNumericDTypes));
}

TEST_CASE("Relu keeps dtype and shape, and rejects bool") {
  const TensorMeta out = infer("Relu", {meta(DType::kBF16, {4, 5})});
  CHECK(out.dtype == DType::kBF16);
  CHECK(out.shape == Shape{4, 5});
  CHECK_THAT(infer_error("Relu", {meta(DType::kBool, {2})}),
             Equals("Relu: input 0 has dtype bool; Relu accepts " + kNumericDTypes +
                    " (convert with Cast first)"));
}

TEST_CASE("Identity copies any dtype") {
  for (DType dtype : hxrt::kAllDTypes) {
    const TensorMeta out = infer("Identity", {meta(dtype, {2, 1})});
    CHECK(out.dtype == dtype);
    CHECK(out.shape == Shape{2, 1});
  }
}

TEST_CASE("Cast takes its output dtype from the dtype attribute") {
  const TensorMeta out = infer("Cast", {meta(DType::kBool, {3, 2})}, {{"dtype", DType::kF16}});
  CHECK(out.dtype == DType::kF16);
  CHECK(out.shape == Shape{3, 2});
  CHECK(infer("Cast", {f32({})}, {{"dtype", DType::kBool}}).dtype == DType::kBool);
  CHECK_THAT(infer_error("Cast", {f32({2})}),
             Equals("Cast: missing required attribute 'dtype' (the dtype to convert to)"));
  CHECK_THAT(infer_error("Cast", {f32({2})}, {{"dtype", std::string("int32")}}),
             Equals("Cast: attribute 'dtype' must be a dtype, got string (\"int32\")"));
  CHECK_THAT(infer_error("Cast", {f32({2})}, {{"dtype", static_cast<DType>(99)}}),
             Contains("Cast: attribute 'dtype' holds dtype value 99, which is not a dtype"));
}

TEST_CASE("Fill makes the shape of its shape attribute") {
  const TensorMeta out =
      infer("Fill", {}, {{"shape", std::vector<int64_t>{2, 3}}, {"value", 1.5}});
  CHECK(out.dtype == DType::kF32);
  CHECK(out.shape == Shape{2, 3});
  const TensorMeta ints =
      infer("Fill", {},
            {{"shape", std::vector<int64_t>{4}}, {"value", int64_t{7}}, {"dtype", DType::kI32}});
  CHECK(ints.dtype == DType::kI32);
  CHECK(ints.shape == Shape{4});
  CHECK(infer("Fill", {}, {{"shape", std::vector<int64_t>{}}, {"value", 0.0}}).shape == Shape{});
  CHECK(infer("Fill", {}, {{"shape", std::vector<int64_t>{0, 5}}, {"value", 0.0}}).shape ==
        Shape{0, 5});
}

TEST_CASE("Fill errors") {
  CHECK_THAT(infer_error("Fill", {}, {{"value", 1.0}}),
             Equals("Fill: missing required attribute 'shape' (a list of ints)"));
  CHECK_THAT(infer_error("Fill", {}, {{"shape", std::vector<int64_t>{2}}}),
             Equals("Fill: missing required attribute 'value' (a float)"));
  CHECK_THAT(infer_error("Fill", {}, {{"shape", int64_t{2}}, {"value", 1.0}}),
             Equals("Fill: attribute 'shape' must be a list of ints, got int (2)"));
  CHECK_THAT(infer_error("Fill", {}, {{"shape", std::vector<int64_t>{2}}, {"value", true}}),
             Equals("Fill: attribute 'value' must be a float (or an int), got bool (true)"));
  CHECK_THAT(infer_error("Fill", {},
                         {{"shape", std::vector<int64_t>{2}}, {"value", 1.0}, {"dtype", 1.0}}),
             Equals("Fill: attribute 'dtype' must be a dtype, got float (1.0)"));
  CHECK_THAT(infer_error("Fill", {}, {{"shape", std::vector<int64_t>{2, -1}}, {"value", 1.0}}),
             Contains("Fill: attribute 'shape': shape [2, -1] has a negative extent -1"));
  CHECK_THAT(infer_error("Fill", {},
                         {{"shape", std::vector<int64_t>(9, 1)}, {"value", 1.0}}),
             Contains("Fill: attribute 'shape': shape [1, 1, 1, 1, 1, 1, 1, 1, 1] has 9 "
                      "dimensions; at most 8"));
}

TEST_CASE("Sum reduces all axes by default, or the listed ones") {
  const TensorMeta x = meta(DType::kF64, {2, 3, 4});
  SECTION("all axes") {
    const TensorMeta out = infer("Sum", {x});
    CHECK(out.dtype == DType::kF64);
    CHECK(out.shape == Shape{});
    CHECK(infer("Sum", {x}, {{"keep_dims", true}}).shape == Shape{1, 1, 1});
  }
  SECTION("listed axes, negative ones counted from the end") {
    CHECK(infer("Sum", {x}, {{"axes", std::vector<int64_t>{1}}}).shape == Shape{2, 4});
    CHECK(infer("Sum", {x}, {{"axes", std::vector<int64_t>{-1, 0}}}).shape == Shape{3});
    CHECK(infer("Sum", {x}, {{"axes", std::vector<int64_t>{-3}}, {"keep_dims", true}}).shape ==
          Shape{1, 3, 4});
  }
  SECTION("an empty list reduces nothing") {
    CHECK(infer("Sum", {x}, {{"axes", std::vector<int64_t>{}}}).shape == Shape{2, 3, 4});
  }
  SECTION("scalars and empty axes") {
    CHECK(infer("Sum", {f32({})}).shape == Shape{});
    CHECK(infer("Sum", {f32({})}, {{"axes", std::vector<int64_t>{}}}).shape == Shape{});
    CHECK(infer("Sum", {f32({0, 3})}, {{"axes", std::vector<int64_t>{0}}}).shape == Shape{3});
  }
}

TEST_CASE("Sum errors") {
  const TensorMeta x = f32({2, 3});
  CHECK_THAT(infer_error("Sum", {x}, {{"axes", std::vector<int64_t>{2}}}),
             Equals("Sum: axis 2 is out of range for input of shape [2, 3]; axes must be from -2 "
                    "to 1"));
  CHECK_THAT(infer_error("Sum", {x}, {{"axes", std::vector<int64_t>{-3}}}),
             Contains("Sum: axis -3 is out of range"));
  CHECK_THAT(infer_error("Sum", {x}, {{"axes", std::vector<int64_t>{1, -1}}}),
             Equals("Sum: axes [1, -1] name axis 1 twice (negative axes count from the end)"));
  CHECK_THAT(infer_error("Sum", {x}, {{"axes", std::vector<int64_t>{0, 0}}}),
             Contains("name axis 0 twice"));
  CHECK_THAT(infer_error("Sum", {f32({})}, {{"axes", std::vector<int64_t>{0}}}),
             Contains("Sum: axes [0] name axis 0, but the input is a scalar, which has no axes"));
  CHECK_THAT(infer_error("Sum", {x}, {{"axes", int64_t{1}}}),
             Equals("Sum: attribute 'axes' must be a list of ints, got int (1)"));
  CHECK_THAT(infer_error("Sum", {x}, {{"keep_dims", int64_t{1}}}),
             Equals("Sum: attribute 'keep_dims' must be a bool, got int (1)"));
  CHECK_THAT(infer_error("Sum", {meta(DType::kBool, {2})}),
             Contains("Sum: input 0 has dtype bool; Sum accepts " + kNumericDTypes));
}

TEST_CASE("attribute readers return defaults when absent and the value when present") {
  const std::string op = "Test";
  const Attrs attrs{{"flag", true},
                    {"count", int64_t{3}},
                    {"ratio", 0.5},
                    {"whole", int64_t{2}},
                    {"type", DType::kI64},
                    {"list", std::vector<int64_t>{4, 5}}};
  const InferContext call{op, nullptr, 0, attrs};
  using namespace hxrt::detail;
  CHECK(attr_bool(call, "flag", false));
  CHECK(attr_bool(call, "absent", true));
  CHECK(attr_int(call, "count", 0) == 3);
  CHECK(attr_int(call, "absent", 9) == 9);
  CHECK(attr_float(call, "ratio", 0.0) == 0.5);
  CHECK(attr_float(call, "whole", 0.0) == 2.0);
  CHECK(attr_float(call, "absent", 1.25) == 1.25);
  CHECK(attr_dtype(call, "type", DType::kF32) == DType::kI64);
  CHECK(attr_dtype(call, "absent", DType::kF16) == DType::kF16);
  CHECK(attr_ints(call, "list", {}) == std::vector<int64_t>{4, 5});
  CHECK(attr_ints(call, "absent", {7}) == std::vector<int64_t>{7});
  CHECK(std::get<bool>(required_attr(call, "flag", "a bool")));
  CHECK_THROWS_WITH(attr_int(call, "ratio", 0),
                    Equals("Test: attribute 'ratio' must be an int, got float (0.5)"));
  CHECK_THROWS_WITH(attr_ints(call, "type", {}),
                    Equals("Test: attribute 'type' must be a list of ints, got dtype (int64)"));
  CHECK_THROWS_WITH(attr_dtype(call, "list", DType::kF32),
                    Equals("Test: attribute 'list' must be a dtype, got list of ints ([4, 5])"));
  CHECK_THROWS_WITH(required_attr(call, "missing", "a thing"),
                    Equals("Test: missing required attribute 'missing' (a thing)"));
}
