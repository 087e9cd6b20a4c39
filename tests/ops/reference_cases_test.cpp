// hxrt::reference_cases (hxrt/op_reference.hpp): every core op carries its executable
// specification, seeded and deterministic, whose outputs follow the op's written shape rule;
// the conformance kit holds plugins' kernels to them (tests/conformance/kernels_test.cpp).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "hxrt/error.hpp"
#include "hxrt/op_info.hpp"
#include "hxrt/op_reference.hpp"

using hxrt::DType;
using hxrt::ReferenceCase;
using hxrt::Shape;
using Catch::Contains;

namespace {

// The dtypes T may be, as the op's written specification declares them.
std::vector<DType> t_dtypes(const hxrt::OpInfo& op) {
  for (const auto* args : {&op.inputs, &op.outputs}) {
    for (const hxrt::OpArgInfo& arg : *args) {
      if (arg.type == "T") return arg.dtypes;
    }
  }
  return {};
}

bool same_values(const std::vector<ReferenceCase>& a, const std::vector<ReferenceCase>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].expected.values != b[i].expected.values) return false;
    if (a[i].more_expected.size() != b[i].more_expected.size()) return false;
    for (size_t j = 0; j < a[i].more_expected.size(); ++j) {
      if (a[i].more_expected[j].values != b[i].more_expected[j].values) return false;
    }
    if (a[i].inputs.size() != b[i].inputs.size()) return false;
    for (size_t j = 0; j < a[i].inputs.size(); ++j) {
      if (a[i].inputs[j].values != b[i].inputs[j].values) return false;
    }
  }
  return true;
}

ReferenceCase find_case(const std::vector<ReferenceCase>& cases, const Shape& first_input) {
  for (const ReferenceCase& c : cases) {
    if (!c.inputs.empty() && c.inputs[0].shape == first_input) return c;
  }
  FAIL("no case with a first input of shape " << first_input.to_string());
  return {};
}

}  // namespace

TEST_CASE("every core op has reference cases for every dtype its T accepts, and none for others",
          "[ops][reference]") {
  for (const hxrt::OpInfo& op : hxrt::core_ops()) {
    const std::vector<DType> accepted = t_dtypes(op);
    REQUIRE_FALSE(accepted.empty());
    for (DType type : hxrt::kAllDTypes) {
      INFO(op.name << " on " << hxrt::dtype_name(type));
      const std::vector<ReferenceCase> cases = hxrt::reference_cases(op.name, type, type, 7);
      const bool accepts =
          std::find(accepted.begin(), accepted.end(), type) != accepted.end();
      CHECK(cases.empty() == !accepts);
      for (const ReferenceCase& c : cases) {
        CHECK(static_cast<int>(c.inputs.size()) >= op.min_inputs);
        CHECK((op.max_inputs < 0 || static_cast<int>(c.inputs.size()) <= op.max_inputs));
        // An op of a fixed number of outputs expects them all; one whose calls decide, at
        // least one and at most its most.
        const std::vector<const hxrt::ReferenceTensor*> outputs = hxrt::expected_outputs(c);
        const bool decided = op.outputs.back().variadic;
        CHECK((decided ? static_cast<int>(outputs.size()) <= op.num_outputs
                       : static_cast<int>(outputs.size()) == op.num_outputs));
        for (const hxrt::ReferenceTensor* output : outputs) {
          CHECK(output->values.size() == static_cast<size_t>(output->shape.num_elements()));
        }
        for (const hxrt::ReferenceTensor& input : c.inputs) {
          CHECK(input.values.size() == static_cast<size_t>(input.shape.num_elements()));
        }
        CHECK(c.tolerance >= 0);
        if (c.broadcast) CHECK(op.broadcasts);
      }
    }
  }
}

TEST_CASE("reference cases repeat for one seed and change with it", "[ops][reference]") {
  const auto add = [](uint64_t seed) {
    return hxrt::reference_cases("Add", DType::kF32, DType::kF32, seed);
  };
  CHECK(same_values(add(1), add(1)));
  CHECK_FALSE(same_values(add(1), add(2)));
}

TEST_CASE("the references compute what the written specification says", "[ops][reference]") {
  SECTION("MatMul of [1, 1] and [1, 1] is the product, summed exactly") {
    const ReferenceCase c =
        find_case(hxrt::reference_cases("MatMul", DType::kF64, DType::kF64, 3), {1, 1});
    CHECK(c.expected.values[0] == c.inputs[0].values[0] * c.inputs[1].values[0]);
    CHECK(c.tolerance == Approx(1e-12));
  }
  SECTION("Add broadcasts a trailing vector over a matrix, and says so") {
    const ReferenceCase c =
        find_case(hxrt::reference_cases("Add", DType::kI32, DType::kI32, 3), {2, 3});
    REQUIRE(c.inputs[1].shape == Shape{3});
    CHECK(c.broadcast);
    CHECK(c.expected.shape == Shape{2, 3});
    CHECK(c.expected.values[4] == c.inputs[0].values[4] + c.inputs[1].values[1]);
    CHECK(c.tolerance == 0);  // integers are exact
  }
  SECTION("integer Div truncates toward zero and never divides by zero") {
    for (const ReferenceCase& c : hxrt::reference_cases("Div", DType::kI64, DType::kI64, 5)) {
      for (double divisor : c.inputs[1].values) CHECK(divisor != 0);
      if (c.inputs[0].shape != c.inputs[1].shape || c.inputs[0].values.empty()) continue;
      const double x = c.inputs[0].values[0];
      const double y = c.inputs[1].values[0];
      CHECK(c.expected.values[0] == std::trunc(x / y));
    }
  }
  SECTION("Cast to int32 truncates, to float16 rounds to a float16 value") {
    for (const ReferenceCase& c : hxrt::reference_cases("Cast", DType::kF32, DType::kI32, 9)) {
      CHECK(c.expected.dtype == DType::kI32);
      for (size_t i = 0; i < c.expected.values.size(); ++i) {
        CHECK(c.expected.values[i] == std::trunc(c.inputs[0].values[i]));
      }
    }
    for (const ReferenceCase& c : hxrt::reference_cases("Cast", DType::kF64, DType::kF16, 9)) {
      for (size_t i = 0; i < c.expected.values.size(); ++i) {
        // A float16 in [-100, 100] is a multiple of 2^-24 with 11 significant bits at most.
        const double value = c.expected.values[i];
        CHECK(std::fabs(value - c.inputs[0].values[i]) <= std::fabs(value) / 1024 + 1e-7);
        int exponent = 0;
        const double fraction = std::frexp(value, &exponent);
        CHECK(std::ldexp(fraction, 11) == std::trunc(std::ldexp(fraction, 11)));
      }
    }
  }
  SECTION("Sum with keep_dims keeps the reduced axes at extent 1") {
    bool found = false;
    for (const ReferenceCase& c : hxrt::reference_cases("Sum", DType::kF32, DType::kF32, 1)) {
      const hxrt::AttrValue* keep = c.attrs.find("keep_dims");
      if (keep == nullptr || !std::get<bool>(*keep) || c.inputs[0].shape != Shape{3, 4, 5}) {
        continue;
      }
      found = true;
      CHECK(c.expected.shape == Shape{1, 4, 1});  // axes [0, 2]
      CHECK(c.tolerance == Approx(15e-5));        // 15 terms each
    }
    CHECK(found);
  }
  SECTION("Fill of the default dtype leaves the attribute out, as the core does") {
    const std::vector<ReferenceCase> cases =
        hxrt::reference_cases("Fill", DType::kF32, DType::kF32, 1);
    CHECK(cases.back().attrs.find("dtype") == nullptr);
    CHECK(cases.back().expected.values == std::vector<double>(4, 1.0));
  }
}

TEST_CASE("reference_cases refuses what is not a core op or not a dtype", "[ops][reference]") {
  CHECK_THROWS_WITH(hxrt::reference_cases("Conv2D", DType::kF32, DType::kF32, 1),
                    Contains("'Conv2D' is not a core op; hxrt::core_ops() lists them"));
  try {
    hxrt::reference_cases("Add", static_cast<DType>(42), DType::kF32, 1);
    FAIL("no error");
  } catch (const hxrt::Error& error) {
    CHECK(error.code() == hxrt::StatusCode::kInvalidArgument);
    CHECK_THAT(error.what(), Contains("type 42 is no DType"));
  }
  CHECK_THROWS_WITH(hxrt::random_reference_tensor(static_cast<DType>(0), {2}, 1),
                    Contains("random_reference_tensor: dtype 0 is no DType"));
}

TEST_CASE("random_reference_tensor gives representable values in the cases' range",
          "[ops][reference]") {
  const hxrt::ReferenceTensor ints = hxrt::random_reference_tensor(DType::kI32, {4, 5}, 11);
  CHECK(ints.values.size() == 20);
  for (double value : ints.values) {
    CHECK(value == std::trunc(value));
    CHECK(std::fabs(value) <= 20);
  }
  const hxrt::ReferenceTensor halves = hxrt::random_reference_tensor(DType::kBF16, {64}, 11);
  for (double value : halves.values) {
    CHECK(std::fabs(value) <= 1);
    CHECK(static_cast<double>(static_cast<float>(value)) == value);
  }
  CHECK(hxrt::random_reference_tensor(DType::kBF16, {64}, 11).values == halves.values);
}
