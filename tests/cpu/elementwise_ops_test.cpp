// The element-wise ops beyond the unary family on the CPU plugin, where their reference cases
// (checked by the conformance kit) do not reach: integer Pow's edges, NaN in Min, Max and the
// comparisons, Clip's bounds on integers, and the calls shape inference refuses.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "cpu_test_support.hpp"

namespace {

// The message of the error `run` throws; fails the test when it throws none.
template <class Run>
std::string error_of(Run run) {
  try {
    run();
  } catch (const hxrt::Error& error) {
    CHECK(error.code() == hxrt::StatusCode::kInvalidArgument);
    return error.what();
  }
  FAIL("the call did not throw");
  return {};
}

}  // namespace

TEMPLATE_TEST_CASE("Integer Pow truncates negative powers and wraps large ones", "[cpu][pow]",
                   int32_t, int64_t) {
  using T = TestType;
  hxrt::Runtime& rt = cpu_test::runtime();
  const hxrt::Tensor base = rt.tensor<T>({6}, {2, 1, -1, -1, 3, 2});
  const hxrt::Tensor exponent =
      rt.tensor<T>({6}, {-1, -5, -3, -2, 0, static_cast<T>(8 * sizeof(T))});
  // 2^bits wraps to 0.
  CHECK(rt.execute("Pow", {base, exponent}).template to_vector<T>() ==
        std::vector<T>{0, 1, -1, 1, 1, 0});
  const std::string error = error_of([&] {
    rt.execute("Pow", {rt.tensor<T>({2}, {0, 2}), rt.tensor<T>({}, {-1})});
  });
  CHECK_THAT(error, Catch::Contains("Pow: 0 to the negative integer power -1"));
}

TEST_CASE("Pow takes an exponent of another dtype, as ONNX's T1", "[cpu][pow]") {
  hxrt::Runtime& rt = cpu_test::runtime();
  // A floating base, an integer exponent: the real power, of the base's dtype.
  const hxrt::Tensor z =
      rt.execute("Pow", {rt.tensor<float>({3}, {2, -0.5f, 4}), rt.tensor<int64_t>({}, {-2})});
  CHECK(z.dtype() == hxrt::DType::kF32);
  CHECK(z.to_vector<float>() == std::vector<float>{0.25f, 4, 0.0625f});
  // An integer base, a floating exponent: the power in double, converted as Cast converts
  // (truncated toward zero, saturated, NaN as 0).
  const hxrt::Tensor base = rt.tensor<int32_t>({5}, {8, 10, -8, 2, 0});
  const hxrt::Tensor exponent = rt.tensor<float>({5}, {1.0f / 3, 0.5f, 0.5f, 40, -1});
  CHECK(rt.execute("Pow", {base, exponent}).to_vector<int32_t>() ==
        std::vector<int32_t>{2, 3, 0, std::numeric_limits<int32_t>::max(),
                             std::numeric_limits<int32_t>::max()});
  // Two integer dtypes: the integer power, wrapping, when the exponent fits the base's dtype.
  CHECK(rt.execute("Pow", {rt.tensor<int32_t>({2}, {3, -2}), rt.tensor<int64_t>({2}, {3, 31})})
            .to_vector<int32_t>() == std::vector<int32_t>{27, std::numeric_limits<int32_t>::min()});
  CHECK_THAT(error_of([&] {
               rt.execute("Pow", {rt.tensor<int32_t>({1}, {2}),
                                  rt.tensor<int64_t>({1}, {int64_t{1} << 40})});
             }),
             Catch::Contains("Pow: the exponent 1099511627776 does not fit the base's dtype "
                             "int32"));
}

TEST_CASE("Min and Max propagate NaN from any input", "[cpu][selection]") {
  hxrt::Runtime& rt = cpu_test::runtime();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const hxrt::Tensor a = rt.tensor<float>({3}, {nan, 1, 2});
  const hxrt::Tensor b = rt.tensor<float>({3}, {0, nan, 5});
  for (const char* op : {"Min", "Max"}) {
    INFO(op);
    const std::vector<float> out = rt.execute(op, {a, b}).to_vector<float>();
    CHECK(std::isnan(out[0]));
    CHECK(std::isnan(out[1]));
    CHECK(out[2] == (std::string(op) == "Min" ? 2 : 5));
  }
}

TEST_CASE("Where picks from x and y with all three operands broadcast", "[cpu][selection]") {
  hxrt::Runtime& rt = cpu_test::runtime();
  const hxrt::Tensor condition =
      cpu_test::raw_tensor(hxrt::DType::kBool, {2, 1}, std::vector<uint8_t>{1, 0});
  const hxrt::Tensor x = rt.tensor<int64_t>({3}, {1, 2, 3});
  const hxrt::Tensor y = rt.tensor<int64_t>({}, {-1});
  const hxrt::Tensor out = rt.execute("Where", {condition, x, y});
  CHECK(out.shape() == hxrt::Shape{2, 3});
  CHECK(out.to_vector<int64_t>() == std::vector<int64_t>{1, 2, 3, -1, -1, -1});
  CHECK_THAT(error_of([&] { rt.execute("Where", {x, x, y}); }),
             Catch::Contains("Where: the condition (input 0) has dtype int64; it must be bool"));
}

TEST_CASE("Every comparison with NaN is false, Equal of NaN and NaN too", "[cpu][comparison]") {
  hxrt::Runtime& rt = cpu_test::runtime();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const hxrt::Tensor a = rt.tensor<float>({2}, {nan, 1});
  const hxrt::Tensor b = rt.tensor<float>({}, {nan});
  for (const char* op : {"Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual"}) {
    INFO(op);
    const hxrt::Tensor out = rt.execute(op, {a, b});
    CHECK(out.dtype() == hxrt::DType::kBool);
    CHECK(cpu_test::raw_bytes(out) == std::vector<uint8_t>{0, 0});
  }
}

TEMPLATE_TEST_CASE("Clip on integers rounds its bounds inward and saturates them",
                   "[cpu][clip]", int32_t, int64_t) {
  using T = TestType;
  hxrt::Runtime& rt = cpu_test::runtime();
  const hxrt::Tensor x = rt.tensor<T>({5}, {-5, -2, 0, 2, 5});
  CHECK(rt.execute("Clip", {x}, {{"min", -2.5}, {"max", 2.5}}).template to_vector<T>() ==
        std::vector<T>{-2, -2, 0, 2, 2});
  CHECK(rt.execute("Clip", {x}, {{"min", -1e30}, {"max", 1e30}}).template to_vector<T>() ==
        std::vector<T>{-5, -2, 0, 2, 5});
  // min > max: every element is max.
  CHECK(rt.execute("Clip", {x}, {{"min", 3.0}, {"max", 1.0}}).template to_vector<T>() ==
        std::vector<T>{1, 1, 1, 1, 1});
}

TEST_CASE("Dropout passes data through with a mask of all true, and refuses training mode",
          "[cpu][dropout]") {
  hxrt::Runtime& rt = cpu_test::runtime();
  const hxrt::Tensor x = rt.tensor<float>({3}, {1, -2, 3});
  for (const hxrt::Attrs& attrs :
       {hxrt::Attrs{{"ratio", 0.3}}, hxrt::Attrs{{"ratio", 0.0}, {"training_mode", true}}}) {
    const std::vector<hxrt::Tensor> outputs = rt.execute_multi("Dropout", {x}, attrs);
    REQUIRE(outputs.size() == 2);
    CHECK(outputs[0].to_vector<float>() == std::vector<float>{1, -2, 3});
    CHECK(outputs[1].dtype() == hxrt::DType::kBool);
    CHECK(outputs[1].to_vector<bool>() == std::vector<bool>{true, true, true});
  }
  CHECK_THAT(error_of([&] {
               rt.execute_multi("Dropout", {x}, {{"training_mode", true}});
             }),
             Catch::Contains("Dropout: training_mode is true with ratio 0.5, but hxrt runs "
                             "Dropout for inference only"));
  CHECK_THAT(error_of([&] {
               rt.execute_multi("Dropout", {x}, {{"ratio", 1.0}});
             }),
             Catch::Contains("Dropout: attribute 'ratio' is 1"));
}

TEST_CASE("Gelu refuses an approximation ONNX does not define", "[cpu][activation]") {
  hxrt::Runtime& rt = cpu_test::runtime();
  const hxrt::Tensor x = rt.tensor<float>({2}, {1, 2});
  CHECK_THAT(error_of([&] { rt.execute("Gelu", {x}, {{"approximate", std::string("erf")}}); }),
             Catch::Contains("Gelu: attribute 'approximate' is \"erf\"; expected \"none\""));
}
