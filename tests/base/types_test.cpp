#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "hxrt/attrs.hpp"
#include "hxrt/dtype.hpp"
#include "hxrt/error.hpp"
#include "hxrt/log.hpp"
#include "hxrt/shape.hpp"

using hxrt::AttrValue;
using hxrt::DType;
using hxrt::Error;
using hxrt::Shape;
using hxrt::StatusCode;

namespace {

// The message of the hxrt::Error that `action` throws, after checking its code.
template <class Action>
std::string error_message(Action action, StatusCode expected_code = StatusCode::kInvalidArgument) {
  try {
    action();
  } catch (const Error& error) {
    CHECK(error.code() == expected_code);
    return error.what();
  }
  FAIL("no hxrt::Error was thrown");
  return {};
}

}  // namespace

TEST_CASE("Shape holds up to kMaxRank extents") {
  const Shape scalar;
  CHECK(scalar.rank() == 0);
  CHECK(scalar.num_elements() == 1);
  CHECK(scalar.to_string() == "[]");

  const Shape matrix{2, 3};
  CHECK(matrix.rank() == 2);
  CHECK(matrix[0] == 2);
  CHECK(matrix.dim(1) == 3);
  CHECK(matrix.num_elements() == 6);
  CHECK(matrix.to_string() == "[2, 3]");
  CHECK(matrix.to_vector() == std::vector<int64_t>{2, 3});

  const Shape full{1, 2, 3, 4, 5, 6, 7, 8};
  CHECK(full.rank() == Shape::kMaxRank);
  CHECK(full.num_elements() == 40320);
  CHECK(Shape(std::vector<int64_t>{4, 5}) == Shape{4, 5});
  const int64_t raw[] = {7, 0, 9};
  CHECK(Shape(raw, 3) == Shape{7, 0, 9});
  CHECK(Shape(raw, 3).num_elements() == 0);
}

TEST_CASE("Shape equality compares rank and extents") {
  CHECK(Shape{2, 3} == Shape{2, 3});
  CHECK(Shape{2, 3} != Shape{3, 2});
  CHECK(Shape{1} != Shape{});
  CHECK(Shape{2, 3} != Shape{2, 3, 1});
}

TEST_CASE("Shape push_back and set_dim") {
  Shape shape;
  shape.push_back(4);
  shape.push_back(0);
  CHECK(shape == Shape{4, 0});
  shape.set_dim(1, 5);
  CHECK(shape == Shape{4, 5});
  Shape full{1, 1, 1, 1, 1, 1, 1, 1};
  CHECK_THAT(error_message([&] { full.push_back(2); }), Catch::Contains("at most 8"));
  CHECK(full.rank() == 8);
  CHECK_THAT(error_message([&] { shape.push_back(-1); }), Catch::Contains("negative extent -1"));
}

TEST_CASE("Shape rejects too many dimensions, negative extents and overflowing counts") {
  CHECK_THAT(error_message([] { Shape{1, 2, 3, 4, 5, 6, 7, 8, 9}; }),
             Catch::Contains("[1, 2, 3, 4, 5, 6, 7, 8, 9] has 9 dimensions; at most 8"));
  CHECK_THAT(error_message([] { Shape(std::vector<int64_t>(9, 1)); }),
             Catch::Contains("at most 8"));
  CHECK_THAT(error_message([] { Shape{2, -3}; }),
             Catch::Contains("[2, -3] has a negative extent -3 in dimension 1"));
  const int64_t dims[] = {1};
  CHECK_THAT(error_message([&] { Shape(dims, -1); }), Catch::Contains("rank -1 is negative"));
  const int64_t huge = std::numeric_limits<int64_t>::max();
  CHECK_THAT(error_message([&] { Shape{huge, 2}; }), Catch::Contains("more elements than fit"));
  Shape grown{huge, 1};
  CHECK_THAT(error_message([&] { grown.set_dim(1, 2); }), Catch::Contains("more elements"));
  CHECK(grown == Shape{huge, 1});
  CHECK_THAT(error_message([&] { grown.set_dim(0, -1); }), Catch::Contains("negative extent"));
  CHECK_THAT(error_message([&] { grown.set_dim(2, 1); }), Catch::Contains("set_dim(2)"));
}

TEST_CASE("an empty Shape's non-zero extents must have a product that fits, as in NumPy") {
  const int64_t huge = std::numeric_limits<int64_t>::max();
  CHECK(Shape{huge, 0}.num_elements() == 0);
  CHECK(Shape{0, huge}.num_elements() == 0);
  // Its strides would overflow: [huge, huge, 0] has a stride of huge * 0 but [0, huge, huge]
  // one of huge * huge.
  CHECK_THAT(error_message([&] { Shape{huge, huge, 0}; }), Catch::Contains("non-zero"));
  CHECK_THAT(error_message([&] { Shape{0, huge, 2}; }), Catch::Contains("non-zero"));
  Shape empty{0, 2};
  CHECK_THAT(error_message([&] { empty.push_back(huge); }), Catch::Contains("non-zero"));
}

TEST_CASE("tensor_bytes checks the product of the non-zero extents and the dtype's size") {
  using hxrt::tensor_bytes;
  const int64_t two_to_60 = int64_t{1} << 60;
  CHECK(tensor_bytes(DType::kF32, Shape{2, 3}) == 24);
  CHECK(tensor_bytes(DType::kF64, Shape{}) == 8);
  CHECK(tensor_bytes(DType::kBool, Shape{0, 5}) == 0);
  CHECK(tensor_bytes(DType::kF32, Shape{two_to_60, 0}) == 0);
  CHECK(tensor_bytes(DType::kBool, Shape{4, two_to_60}) == size_t{1} << 62);
  // 2^61 - 1 float32 elements: the largest count whose bytes stay within kMaxTensorBytes.
  CHECK(tensor_bytes(DType::kF32, Shape{2 * two_to_60 - 1}) == hxrt::kMaxTensorBytes - 3);

  // 2^62 float32 elements are 2^64 bytes, which a size_t product wraps to 0.
  const std::string wrapped =
      error_message([&] { tensor_bytes(DType::kF32, Shape{4 * two_to_60}); });
  CHECK_THAT(wrapped, Catch::Contains("shape [4611686018427387904] and dtype float32"));
  CHECK_THAT(wrapped, Catch::Contains("more than 9223372036854775807 bytes"));
  // 2^63 bytes fit in a size_t but not in the signed offsets kernels index with.
  CHECK_THAT(error_message([&] { tensor_bytes(DType::kF32, Shape{2 * two_to_60}); }),
             Catch::Contains("more than 9223372036854775807 bytes"));
  // Empty, but its strides in bytes would overflow.
  CHECK_THAT(error_message([&] { tensor_bytes(DType::kF64, Shape{two_to_60, 0}); }),
             Catch::Contains("[1152921504606846976, 0]"));
  CHECK_THAT(error_message([&] { tensor_bytes(static_cast<DType>(42), Shape{1}); }),
             Catch::Contains("dtype value 42 is not a dtype"));
}

TEST_CASE("dtype names and sizes") {
  CHECK(hxrt::dtype_name(DType::kF32) == std::string("float32"));
  CHECK(hxrt::dtype_name(DType::kF64) == std::string("float64"));
  CHECK(hxrt::dtype_name(DType::kF16) == std::string("float16"));
  CHECK(hxrt::dtype_name(DType::kBF16) == std::string("bfloat16"));
  CHECK(hxrt::dtype_name(DType::kI32) == std::string("int32"));
  CHECK(hxrt::dtype_name(DType::kI64) == std::string("int64"));
  CHECK(hxrt::dtype_name(DType::kBool) == std::string("bool"));
  CHECK(hxrt::dtype_size(DType::kF32) == 4);
  CHECK(hxrt::dtype_size(DType::kF64) == 8);
  CHECK(hxrt::dtype_size(DType::kF16) == 2);
  CHECK(hxrt::dtype_size(DType::kBF16) == 2);
  CHECK(hxrt::dtype_size(DType::kI32) == 4);
  CHECK(hxrt::dtype_size(DType::kI64) == 8);
  CHECK(hxrt::dtype_size(DType::kBool) == 1);
  CHECK(hxrt::is_floating(DType::kBF16));
  CHECK_FALSE(hxrt::is_floating(DType::kI64));
  CHECK_FALSE(hxrt::is_floating(DType::kBool));
  CHECK(hxrt::dtype_size(DType::kU8) == 1);
  CHECK(hxrt::dtype_size(DType::kI16) == 2);
  CHECK(hxrt::dtype_size(DType::kU32) == 4);
  CHECK(hxrt::dtype_size(DType::kU64) == 8);
  CHECK(hxrt::is_integer(DType::kI8));
  CHECK(hxrt::is_integer(DType::kU64));
  CHECK_FALSE(hxrt::is_integer(DType::kBool));
  CHECK_FALSE(hxrt::is_integer(DType::kF16));
  CHECK(hxrt::is_unsigned(DType::kU16));
  CHECK_FALSE(hxrt::is_unsigned(DType::kI64));
}

TEST_CASE("a dtype value outside the enum is reported, not trusted") {
  const auto invalid = static_cast<DType>(42);
  CHECK(hxrt::dtype_size(invalid) == 0);
  CHECK(hxrt::dtype_name(invalid) == std::string("invalid"));
  CHECK_FALSE(hxrt::is_floating(invalid));
  CHECK_FALSE(hxrt::is_integer(invalid));
}

TEST_CASE("parse_dtype reads every name and short name") {
  for (DType dtype : hxrt::kAllDTypes) {
    CHECK(hxrt::parse_dtype(hxrt::dtype_name(dtype)) == dtype);
  }
  CHECK(hxrt::parse_dtype("f32") == DType::kF32);
  CHECK(hxrt::parse_dtype("f64") == DType::kF64);
  CHECK(hxrt::parse_dtype("f16") == DType::kF16);
  CHECK(hxrt::parse_dtype("bf16") == DType::kBF16);
  CHECK(hxrt::parse_dtype("i32") == DType::kI32);
  CHECK(hxrt::parse_dtype("i64") == DType::kI64);
  CHECK(hxrt::parse_dtype("uint8") == DType::kU8);
  CHECK(hxrt::parse_dtype("u64") == DType::kU64);
  CHECK(hxrt::parse_dtype("int16") == DType::kI16);
}

TEST_CASE("parse_dtype lists the accepted names when it fails") {
  for (const char* bad : {"float", "", "f8", "Float32"}) {
    INFO(bad);
    const std::string message = error_message([&] { hxrt::parse_dtype(bad); });
    CHECK_THAT(message, Catch::Contains("'" + std::string(bad) + "'"));
    CHECK_THAT(message, Catch::Contains("float32, float64, float16, bfloat16, int32, int64, bool, "
                                        "int8, uint8, int16, uint16, uint32, uint64"));
    CHECK_THAT(message, Catch::Contains("i8, u8, i16, u16, u32, u64"));
  }
}

TEST_CASE("status code names") {
  CHECK(hxrt::status_code_name(StatusCode::kOk) == std::string("OK"));
  CHECK(hxrt::status_code_name(StatusCode::kInvalidArgument) == std::string("INVALID_ARGUMENT"));
  CHECK(hxrt::status_code_name(StatusCode::kNotFound) == std::string("NOT_FOUND"));
  CHECK(hxrt::status_code_name(StatusCode::kAlreadyExists) == std::string("ALREADY_EXISTS"));
  CHECK(hxrt::status_code_name(StatusCode::kOutOfMemory) == std::string("OUT_OF_MEMORY"));
  CHECK(hxrt::status_code_name(StatusCode::kUnimplemented) == std::string("UNIMPLEMENTED"));
  CHECK(hxrt::status_code_name(StatusCode::kFailedPrecondition) ==
        std::string("FAILED_PRECONDITION"));
  CHECK(hxrt::status_code_name(StatusCode::kUnavailable) == std::string("UNAVAILABLE"));
  CHECK(hxrt::status_code_name(StatusCode::kOutOfRange) == std::string("OUT_OF_RANGE"));
  CHECK(hxrt::status_code_name(StatusCode::kInternal) == std::string("INTERNAL"));
  CHECK(hxrt::status_code_name(static_cast<StatusCode>(77)) == std::string("UNKNOWN"));
}

TEST_CASE("log levels: names and parsing in any case") {
  using hxrt::LogLevel;
  CHECK(hxrt::log_level_name(LogLevel::kDebug) == std::string("DEBUG"));
  CHECK(hxrt::log_level_name(LogLevel::kInfo) == std::string("INFO"));
  CHECK(hxrt::log_level_name(LogLevel::kWarning) == std::string("WARNING"));
  CHECK(hxrt::log_level_name(LogLevel::kError) == std::string("ERROR"));
  CHECK(hxrt::parse_log_level("debug") == LogLevel::kDebug);
  CHECK(hxrt::parse_log_level("Info") == LogLevel::kInfo);
  CHECK(hxrt::parse_log_level("WARNING") == LogLevel::kWarning);
  CHECK(hxrt::parse_log_level("error") == LogLevel::kError);
  const std::string message = error_message([] { hxrt::parse_log_level("verbose"); });
  CHECK_THAT(message, Catch::Contains("'verbose'"));
  CHECK_THAT(message, Catch::Contains("debug, info, warning, error"));
}

TEST_CASE("Attrs set adds or replaces, find looks up by name") {
  hxrt::Attrs attrs;
  CHECK(attrs.empty());
  CHECK(attrs.find("transpose_a") == nullptr);
  attrs.set("transpose_a", true);
  attrs.set("axes", std::vector<int64_t>{0, 1});
  REQUIRE(attrs.find("transpose_a") != nullptr);
  CHECK(std::get<bool>(*attrs.find("transpose_a")));
  attrs.set("transpose_a", false);
  CHECK_FALSE(std::get<bool>(*attrs.find("transpose_a")));
  CHECK(attrs.items().size() == 2);
  CHECK(attrs.items()[0].first == "transpose_a");
  CHECK(std::get<std::vector<int64_t>>(*attrs.find("axes")) == std::vector<int64_t>{0, 1});
  CHECK(attrs.find("transpose") == nullptr);

  const hxrt::Attrs listed{{"dtype", DType::kI32}, {"value", 2.5}};
  CHECK(std::get<DType>(*listed.find("dtype")) == DType::kI32);
  CHECK(std::get<double>(*listed.find("value")) == 2.5);

  const hxrt::Attrs repeated{{"transpose_a", true}, {"transpose_a", false}};
  CHECK(repeated.items().size() == 1);
  CHECK_FALSE(std::get<bool>(*repeated.find("transpose_a")));
}

TEST_CASE("attr_value_to_string") {
  using hxrt::attr_value_to_string;
  CHECK(attr_value_to_string(true) == "true");
  CHECK(attr_value_to_string(false) == "false");
  CHECK(attr_value_to_string(int64_t{3}) == "3");
  CHECK(attr_value_to_string(int64_t{-7}) == "-7");
  CHECK(attr_value_to_string(2.5) == "2.5");
  CHECK(attr_value_to_string(2.0) == "2.0");
  CHECK(attr_value_to_string(0.1) == "0.1");
  CHECK(attr_value_to_string(1e300) == "1e+300");
  CHECK(attr_value_to_string(std::nan("")) == "nan");
  CHECK(attr_value_to_string(-std::numeric_limits<double>::infinity()) == "-inf");
  CHECK(attr_value_to_string(std::string("text")) == "\"text\"");
  CHECK(attr_value_to_string(std::string("a\"b\\c\n")) == "\"a\\\"b\\\\c\\n\"");
  CHECK(attr_value_to_string(std::string("\x01")) == "\"\\x01\"");
  CHECK(attr_value_to_string(DType::kF32) == "float32");
  CHECK(attr_value_to_string(std::vector<int64_t>{0, 1}) == "[0, 1]");
  CHECK(attr_value_to_string(std::vector<int64_t>{}) == "[]");
  CHECK(attr_value_to_string(std::vector<double>{0.5, 2, -0.1}) == "[0.5, 2.0, -0.1]");
  CHECK(attr_value_to_string(std::vector<double>{}) == "[]");
}
