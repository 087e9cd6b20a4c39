// Sizes that do not fit: every byte count is checked before anything is allocated, so a shape
// too large for any tensor is an error naming it, never a tensor whose bytes wrapped around.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "runtime_fixture.hpp"

using Catch::Matchers::Contains;
using hxrt::DType;
using hxrt::Shape;
using hxrt::StatusCode;
using runtime_test::cpu_only_options;
using runtime_test::cpu_runtime;
using runtime_test::error_from;

namespace {

constexpr int64_t kTwoTo31 = int64_t{1} << 31;
constexpr int64_t kTwoTo40 = int64_t{1} << 40;
constexpr int64_t kTwoTo60 = int64_t{1} << 60;
constexpr int64_t kTwoTo62 = int64_t{1} << 62;

// Checks that `action` throws hxrt::Error of `code` whose message holds every one of `parts`.
template <class Action>
void check_refused(Action action, StatusCode code, const std::vector<std::string>& parts) {
  auto error = error_from(action);
  REQUIRE(error);
  CHECK(error->code() == code);
  for (const std::string& part : parts) CHECK_THAT(error->what(), Contains(part));
}

// The CPU plugin and one more, given `options` (a JSON object) under its `name`.
hxrt::Runtime runtime_with(const std::string& path, const std::string& name = {},
                           const std::string& options = {}) {
  hxrt::RuntimeOptions runtime_options = cpu_only_options();
  runtime_options.plugin_paths.push_back(path);
  if (!name.empty()) runtime_options.plugin_options[name] = options;
  return hxrt::Runtime::create(runtime_options);
}

}  // namespace

TEST_CASE("Fill refuses a shape whose bytes do not fit instead of allocating a wrapped size") {
  hxrt::Runtime rt = cpu_runtime();
  const hxrt::Attrs attrs{{"shape", std::vector<int64_t>{kTwoTo62}}, {"value", 1.0}};
  check_refused([&] { rt.execute("Fill", {}, attrs); }, StatusCode::kInvalidArgument,
                {"Fill: output 0", "[4611686018427387904]", "float32", "9223372036854775807"});
  // A size that fits but that no device holds is out of memory, from the allocator.
  const hxrt::Attrs large{{"shape", std::vector<int64_t>{kTwoTo60}}, {"value", 1.0}};
  check_refused([&] { rt.execute("Fill", {}, large); }, StatusCode::kOutOfMemory,
                {"Out of memory on", "4611686018427387904 bytes"});
}

TEST_CASE("from_host refuses a shape whose bytes do not fit, whatever byte count it is given") {
  hxrt::Runtime rt = cpu_runtime();
  // 2^62 float32 elements are 2^64 bytes, which a size_t product wraps to 0 bytes.
  check_refused([&] { rt.from_host(DType::kF32, Shape{kTwoTo62}, nullptr, 0); },
                StatusCode::kInvalidArgument, {"[4611686018427387904]", "float32"});
  float value = 1;
  check_refused([&] { rt.from_host(DType::kF32, Shape{kTwoTo62}, &value, 4); },
                StatusCode::kInvalidArgument, {"[4611686018427387904]"});
  check_refused([&] { rt.from_host(static_cast<DType>(42), Shape{1}, &value, 1); },
                StatusCode::kInvalidArgument, {"dtype value 42"});
}

TEST_CASE("an empty tensor whose non-zero extents are too large is refused, as in NumPy") {
  hxrt::Runtime rt = cpu_runtime();
  check_refused([&] { rt.from_host(DType::kF32, Shape{kTwoTo62, 0}, nullptr, 0); },
                StatusCode::kInvalidArgument, {"[4611686018427387904, 0]"});
}

TEST_CASE("an empty tensor with a huge extent flows through ops and prints in bounded space") {
  hxrt::Runtime rt = cpu_runtime();
  hxrt::Tensor empty = rt.from_host(DType::kF32, Shape{kTwoTo40, 0}, nullptr, 0);
  hxrt::Tensor out = rt.execute("Relu", {empty});
  CHECK(out.shape() == Shape{kTwoTo40, 0});
  CHECK(out.to_vector<float>().empty());
  CHECK(out.to_string() == "[[], [], [], ..., [], [], []]");
  CHECK(rt.from_host(DType::kF32, Shape{0, kTwoTo40}, nullptr, 0).to_string() == "[]");
}

TEST_CASE("Sum over a zero axis makes an output of the kept extents, or says why it cannot") {
  hxrt::Runtime rt = cpu_runtime();
  hxrt::Tensor small = rt.from_host(DType::kF32, Shape{3, 0}, nullptr, 0);
  CHECK(rt.execute("Sum", {small}, {{"axes", std::vector<int64_t>{1}}}).to_vector<float>() ==
        std::vector<float>{0, 0, 0});
  // [2^60] float32 is 2^62 bytes: a size that fits, but not in any device.
  hxrt::Tensor wide = rt.from_host(DType::kF32, Shape{kTwoTo60, 0}, nullptr, 0);
  check_refused([&] { rt.execute("Sum", {wide}, {{"axes", std::vector<int64_t>{1}}}); },
                StatusCode::kOutOfMemory, {"4611686018427387904 bytes"});
  // Under NumPy's rule Sum's output is never larger than its input may be: [2^62, 0] float32
  // is refused before it exists (see above).
}

TEST_CASE("Cast to a wider dtype refuses an empty output whose strides in bytes would overflow") {
  hxrt::Runtime rt = cpu_runtime();
  hxrt::Tensor empty = rt.from_host(DType::kF32, Shape{kTwoTo60, 0}, nullptr, 0);
  check_refused([&] { rt.execute("Cast", {empty}, {{"dtype", DType::kF64}}); },
                StatusCode::kInvalidArgument,
                {"Cast: output 0", "[1152921504606846976, 0]", "float64"});
  CHECK(rt.execute("Cast", {empty}, {{"dtype", DType::kF16}}).shape() == Shape{kTwoTo60, 0});
}

TEST_CASE("MatMul of empty matrices on the sim device refuses an output too large for memory") {
  hxrt::Runtime rt = runtime_with(std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_sim.so", "sim",
                                  R"({"device_count": 1})");
  hxrt::Tensor a = rt.from_host(DType::kF32, Shape{kTwoTo31, 0}, nullptr, 0, "SIM:0");
  hxrt::Tensor b = rt.from_host(DType::kF32, Shape{0, kTwoTo31}, nullptr, 0, "SIM:0");
  // [2^31, 2^31] float32 is 2^64 bytes.
  check_refused([&] { rt.execute("MatMul", {a, b}, {}, "SIM:0"); }, StatusCode::kInvalidArgument,
                {"MatMul: output 0", "[2147483648, 2147483648]"});
  hxrt::Tensor small_a = rt.from_host(DType::kF32, Shape{2, 0}, nullptr, 0, "SIM:0");
  hxrt::Tensor small_b = rt.from_host(DType::kF32, Shape{0, 3}, nullptr, 0, "SIM:0");
  CHECK(rt.execute("MatMul", {small_a, small_b}, {}, "SIM:0").to_vector<float>() ==
        std::vector<float>(6, 0.0f));
}

TEST_CASE("a custom op whose shape inference claims an output too large is refused by the core") {
  hxrt::Runtime rt =
      runtime_with(std::string(HXRT_TEST_FIXTURE_DIR) + "/libhx_fixture_huge_output.so");
  check_refused([&] { rt.execute("HugeOutput", {}); }, StatusCode::kInvalidArgument,
                {"HugeOutput: output 0", "[4611686018427387904]", "float32"});
}

TEST_CASE("a custom op whose shape inference writes a negative extent is refused, naming it") {
  hxrt::Runtime rt =
      runtime_with(std::string(HXRT_TEST_FIXTURE_DIR) + "/libhx_fixture_huge_output.so");
  check_refused([&] { rt.execute("NegativeOutput", {}); }, StatusCode::kInternal,
                {"NegativeOutput: the plugin's shape inference wrote output 0", "-1",
                 "a bug in the plugin"});
}

TEST_CASE("to_string summarises past 1000 elements as NumPy does") {
  hxrt::Runtime rt = cpu_runtime();
  std::vector<int32_t> values(2000);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int32_t>(i);
  CHECK(rt.tensor<int32_t>({2000}, values).to_string() == "[0, 1, 2, ..., 1997, 1998, 1999]");
  CHECK(rt.tensor<int32_t>({100, 20}, values).to_string() ==
        "[[0, 1, 2, ..., 17, 18, 19], [20, 21, 22, ..., 37, 38, 39], "
        "[40, 41, 42, ..., 57, 58, 59], ..., [1940, 1941, 1942, ..., 1957, 1958, 1959], "
        "[1960, 1961, 1962, ..., 1977, 1978, 1979], [1980, 1981, 1982, ..., 1997, 1998, 1999]]");
  // At the threshold every element is printed.
  values.resize(1000);
  const std::string full = rt.tensor<int32_t>({1000}, values).to_string();
  CHECK(full.find("...") == std::string::npos);
  CHECK_THAT(full, Contains(", 500, 501, "));
}
