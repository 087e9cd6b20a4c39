// Cast on the CPU plugin: every dtype to every dtype, on edge values (ties, overflow, NaN,
// infinities, subnormals, integer limits) plus random ones, against a reference that works on
// exact long double values.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include <hxcommon/element_values.hpp>

#include "cpu_test_support.hpp"

namespace {

using hxrt::DType;

template <class T>
std::vector<T> with_random(std::vector<T> values, uint32_t seed) {
  const std::vector<T> random = cpu_test::random_values<T>(200, seed);
  values.insert(values.end(), random.begin(), random.end());
  return values;
}

// Values that sit on the rules' edges: f16/bf16 rounding ties and near-ties, overflow
// thresholds, subnormals, integer limits and their neighbours.
std::vector<double> edge_values() {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  return {0.0, -0.0, 1.0, -1.0, 0.5, 1.5, 2.5, -2.5, 0.1, -0.9, 65504.0, 65519.0, 65520.0,
          65536.0, 1e5, 1e10, -1e10, 3e38, -3.4e38, 1e-8, 6e-8, 5.9604644775390625e-8,
          2.98023223876953125e-8, 1e-40, nan, -nan, inf, -inf,
          1.0 + 0x1p-11, 1.0 + 3 * 0x1p-11, 1.0 + 0x1p-11 + 0x1p-20,  // f16 ties and a near-tie
          1.0 + 0x1p-8, 1.0 + 3 * 0x1p-8, 1.0 + 0x1p-8 + 0x1p-20,     // bf16 ties and a near-tie
          2147483520.0, 2147483647.5, 2147483648.0, -2147483648.9, -2147483904.0,
          9.2e18, 9.3e18, -9.3e18};
}

// An integer type's limits and their neighbours, the f16 and f32 thresholds within it, and
// random values.
template <class T>
std::vector<uint8_t> integer_edges(uint32_t seed) {
  using Limits = std::numeric_limits<T>;
  std::vector<T> values = {0, 1, Limits::max(), static_cast<T>(Limits::max() - 1), Limits::min(),
                           static_cast<T>(Limits::min() + 1)};
  for (long long extra : {-1LL, 127LL, 128LL, 255LL, 256LL, 2049LL, 32767LL, 65504LL, 65520LL}) {
    if (extra >= static_cast<long long>(Limits::min()) &&
        static_cast<unsigned long long>(extra) <= static_cast<unsigned long long>(Limits::max())) {
      values.push_back(static_cast<T>(extra));
    }
  }
  return cpu_test::to_bytes(with_random(values, seed));
}

std::vector<uint8_t> source_bytes(DType dtype) {
  std::vector<double> edges = edge_values();
  switch (dtype) {
    case DType::kF32: {
      std::vector<float> values(edges.begin(), edges.end());
      values.push_back(std::numeric_limits<float>::max());
      values.push_back(std::numeric_limits<float>::denorm_min());
      return cpu_test::to_bytes(with_random(values, 21));
    }
    case DType::kF64: {
      // Near-ties a float intermediate would round onto a tie (double rounding), and values
      // beyond float's range.
      for (double extra : {1.0 + 0x1p-11 + 0x1p-40, 1.0 + 0x1p-8 + 0x1p-40, 1e300, -1e300,
                           1e-310, 0x1p63, -0x1p63, -0x1p63 - 4096.0, 9223372036854774784.0,
                           4294967296.5}) {
        edges.push_back(extra);
      }
      return cpu_test::to_bytes(with_random(edges, 22));
    }
    case DType::kF16:
    case DType::kBF16: {
      std::vector<uint16_t> every_pattern(65536);
      for (size_t bits = 0; bits < every_pattern.size(); ++bits) {
        every_pattern[bits] = static_cast<uint16_t>(bits);
      }
      return cpu_test::to_bytes(every_pattern);
    }
    case DType::kI32: {
      using Limits = std::numeric_limits<int32_t>;
      return cpu_test::to_bytes(with_random<int32_t>(
          {0, 1, -1, 2, 127, 255, 256, 65504, 65519, 65520, 65536, -65536, (1 << 24) + 1,
           (1 << 24) + (1 << 16) + 1, -((1 << 24) + (1 << 16) + 1), Limits::max(), Limits::min()},
          23));
    }
    case DType::kI64: {
      using Limits = std::numeric_limits<int64_t>;
      return cpu_test::to_bytes(with_random<int64_t>(
          {0, 1, -1, 65520, (1LL << 24) + (1LL << 16) + 1, (1LL << 31), -(1LL << 31) - 1,
           (1LL << 32) + 5, (1LL << 53) + 1, (1LL << 60) + (1LL << 52) + 1,
           -((1LL << 60) + (1LL << 52) + 1), Limits::max(), Limits::min(), Limits::min() + 1},
          24));
    }
    case DType::kBool: return {0, 1, 1, 0};
    case DType::kI8: return integer_edges<int8_t>(25);
    case DType::kU8: return integer_edges<uint8_t>(26);
    case DType::kI16: return integer_edges<int16_t>(27);
    case DType::kU16: return integer_edges<uint16_t>(28);
    case DType::kU32: return integer_edges<uint32_t>(29);
    case DType::kF8E4M3FN:
    case DType::kF8E4M3FNUZ:
    case DType::kF8E5M2:
    case DType::kF8E5M2FNUZ: {
      std::vector<uint8_t> every_pattern(256);
      for (size_t bits = 0; bits < every_pattern.size(); ++bits) {
        every_pattern[bits] = static_cast<uint8_t>(bits);
      }
      return every_pattern;
    }
    case DType::kU64: {
      return cpu_test::to_bytes(with_random<uint64_t>(
          {0, 1, 255, 256, 65535, 65536, (1ULL << 24) + (1ULL << 16) + 1, (1ULL << 32) + 5,
           (1ULL << 53) + 1, (1ULL << 63), (1ULL << 63) + 1, ~0ULL},
          30));
    }
  }
  FAIL("unknown dtype");
  return {};
}

// The value of `integer` (an exact integer) wrapped modulo 2^bits into the integer dtype `to`.
long double wrapped(long double integer, DType to) {
  const uint64_t bits = integer < 0 ? static_cast<uint64_t>(static_cast<int64_t>(integer))
                                    : static_cast<uint64_t>(integer);
  const int width = static_cast<int>(hxrt::dtype_size(to)) * 8;
  const uint64_t kept = width == 64 ? bits : bits & ((1ULL << width) - 1);
  const bool negative = hxrt::is_integer(to) && !hxrt::is_unsigned(to) &&
                        (kept >> (width - 1)) != 0;
  return negative ? static_cast<long double>(kept) - std::ldexp(1.0L, width)
                  : static_cast<long double>(kept);
}

// What Cast must produce, as a long double (NaN for any NaN).
long double expected_value(DType from, DType to, long double value) {
  switch (to) {
    case DType::kF32: return static_cast<float>(value);
    case DType::kF64: return static_cast<double>(value);
    case DType::kF16:
    case DType::kBF16: {
      const uint16_t bits = cpu_test::nearest_narrow_float(to, value);
      return cpu_test::element_value(to, cpu_test::to_bytes(std::vector<uint16_t>{bits}), 0);
    }
    case DType::kBool: return value != 0 ? 1 : 0;
    case DType::kF8E4M3FN:
    case DType::kF8E4M3FNUZ:
    case DType::kF8E5M2:
    case DType::kF8E5M2FNUZ: {
      // The core's reference encoder (hxcommon), which shares no code with the plugin's.
      uint8_t bits = 0;
      hxcommon::element_from_double(static_cast<double>(value), static_cast<int32_t>(to),
                                    &bits, 0);
      return cpu_test::element_value(to, {bits}, 0);
    }
    default: break;
  }
  // The integer types.
  const int width = static_cast<int>(hxrt::dtype_size(to)) * 8;
  const long double lowest = hxrt::is_unsigned(to) ? 0 : -std::ldexp(1.0L, width - 1);
  const long double above = lowest + std::ldexp(1.0L, width);  // the first value past the range
  if (hxrt::is_floating(from)) {  // truncate, saturate, NaN -> 0
    if (std::isnan(value)) return 0;
    if (value <= lowest) return lowest;
    if (value >= above) return above - 1;
    return std::trunc(value) + 0.0L;  // + 0: an integer zero has no sign
  }
  return wrapped(value, to);  // integer (or bool) to integer wraps modulo 2^bits
}

bool same_value(long double actual, long double expected) {
  if (std::isnan(expected)) return std::isnan(actual);
  return actual == expected && std::signbit(actual) == std::signbit(expected);
}

}  // namespace

TEST_CASE("Cast converts every dtype to every dtype", "[cpu][cast]") {
  const DType from = GENERATE(from_range(std::begin(hxrt::kAllDTypes), std::end(hxrt::kAllDTypes)));
  const DType to = GENERATE(from_range(std::begin(hxrt::kAllDTypes), std::end(hxrt::kAllDTypes)));
  CAPTURE(hxrt::dtype_name(from), hxrt::dtype_name(to));

  const std::vector<uint8_t> input = source_bytes(from);
  const int64_t count = static_cast<int64_t>(input.size() / hxrt::dtype_size(from));
  const hxrt::Tensor output = cpu_test::runtime().execute(
      "Cast", {cpu_test::raw_tensor(from, {count}, input)}, {{"dtype", to}});
  REQUIRE(output.dtype() == to);
  REQUIRE(output.shape() == hxrt::Shape{count});

  // The elements are compared in a plain loop and only the first wrong one is reported:
  // Catch2's CAPTURE and REQUIRE on each of the pairs' tens of thousands of elements took a
  // minute under AddressSanitizer, far more than the conversions.
  const std::vector<uint8_t> result = cpu_test::raw_bytes(output);
  for (size_t i = 0; i < static_cast<size_t>(count); ++i) {
    const long double source = cpu_test::element_value(from, input, i);
    const long double expected = expected_value(from, to, source);
    const long double actual = cpu_test::element_value(to, result, i);
    const bool stored_bool = to != DType::kBool || result[i] == 0 || result[i] == 1;
    if (!stored_bool || !same_value(actual, expected)) {
      CAPTURE(i, static_cast<double>(source), static_cast<double>(expected),
              static_cast<double>(actual));
      REQUIRE(stored_bool);
      REQUIRE(same_value(actual, expected));
    }
  }
}

TEST_CASE("Cast keeps shapes, including scalars and empty tensors", "[cpu][cast]") {
  hxrt::Runtime& rt = cpu_test::runtime();
  const hxrt::Shape shape = GENERATE(hxrt::Shape{}, hxrt::Shape{0, 3}, hxrt::Shape{2, 1, 3});
  const std::vector<int32_t> values(static_cast<size_t>(shape.num_elements()), 7);
  const hxrt::Tensor output =
      rt.execute("Cast", {rt.tensor<int32_t>(shape, values)}, {{"dtype", DType::kF64}});
  REQUIRE(output.shape() == shape);
  REQUIRE(output.to_vector<double>() == std::vector<double>(values.begin(), values.end()));
}

TEST_CASE("Cast to f16 and bf16 rounds once, to nearest even", "[cpu][cast]") {
  hxrt::Runtime& rt = cpu_test::runtime();
  const auto bits_of = [](const hxrt::Tensor& tensor) {
    const std::vector<uint8_t> bytes = cpu_test::raw_bytes(tensor);
    std::vector<uint16_t> bits(bytes.size() / 2);
    std::memcpy(bits.data(), bytes.data(), bytes.size());
    return bits;
  };
  // Ties go to the even pattern; a double just above a tie rounds up although a float
  // intermediate would have rounded it onto the tie.
  const hxrt::Tensor doubles = rt.tensor<double>(
      {5}, {1.0 + 0x1p-11, 1.0 + 3 * 0x1p-11, 1.0 + 0x1p-11 + 0x1p-40, 65519.0, 65520.0});
  REQUIRE(bits_of(rt.execute("Cast", {doubles}, {{"dtype", DType::kF16}})) ==
          std::vector<uint16_t>{0x3C00, 0x3C02, 0x3C01, 0x7BFF, 0x7C00});
  // 2^24 + 2^16 + 1 rounds up in bf16; through float it would land on the tie and go down.
  const hxrt::Tensor ints = rt.tensor<int32_t>({2}, {(1 << 24) + (1 << 16) + 1, 1 << 24});
  REQUIRE(bits_of(rt.execute("Cast", {ints}, {{"dtype", DType::kBF16}})) ==
          std::vector<uint16_t>{0x4B81, 0x4B80});
}

TEST_CASE("f16 and bf16 survive a round trip through f32 and f64", "[cpu][cast]") {
  hxrt::Runtime& rt = cpu_test::runtime();
  const DType narrow = GENERATE(DType::kF16, DType::kBF16);
  const DType wide = GENERATE(DType::kF32, DType::kF64);
  CAPTURE(hxrt::dtype_name(narrow), hxrt::dtype_name(wide));
  const std::vector<uint8_t> every_pattern = source_bytes(narrow);
  const hxrt::Tensor original = cpu_test::raw_tensor(narrow, {65536}, every_pattern);
  const hxrt::Tensor widened = rt.execute("Cast", {original}, {{"dtype", wide}});
  const std::vector<uint8_t> back =
      cpu_test::raw_bytes(rt.execute("Cast", {widened}, {{"dtype", narrow}}));
  for (size_t i = 0; i < 65536; ++i) {  // a plain loop, as above; the first wrong one reported
    const long double value = cpu_test::element_value(narrow, every_pattern, i);
    const bool same = std::isnan(value) ? std::isnan(cpu_test::element_value(narrow, back, i))
                                        : back[2 * i] == every_pattern[2 * i] &&
                                              back[2 * i + 1] == every_pattern[2 * i + 1];
    if (!same) {
      CAPTURE(i, static_cast<double>(value));
      REQUIRE(same);
    }
  }
}

TEST_CASE("Cast from floats to integers saturates and maps NaN to zero", "[cpu][cast]") {
  hxrt::Runtime& rt = cpu_test::runtime();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const hxrt::Tensor x = rt.tensor<float>({6}, {nan, inf, -inf, 3e9f, -3e9f, -2.75f});
  REQUIRE(rt.execute("Cast", {x}, {{"dtype", DType::kI32}}).to_vector<int32_t>() ==
          std::vector<int32_t>{0, std::numeric_limits<int32_t>::max(),
                               std::numeric_limits<int32_t>::min(),
                               std::numeric_limits<int32_t>::max(),
                               std::numeric_limits<int32_t>::min(), -2});
}

TEST_CASE("Cast to the 8-bit floats rounds to nearest even and saturates as ONNX's Cast",
          "[cpu][cast]") {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // 464 is the tie between e4m3fn's largest, 448 (code 0x7E, even), and the 480 it lacks;
  // 2^-10 the tie between 0 and its smallest subnormal, 2^-9; 61440 e5m2's between 57344
  // (0x7B, odd) and the 65536 it lacks.
  const std::vector<float> x = {448, 464, 465, 1e9f, inf, -inf, nan, 0x1p-9f, 0x1p-10f, -0.0f,
                                240, 57344, 61440};
  const hxrt::Tensor input = cpu_test::runtime().tensor<float>({13}, x);
  const auto bits = [&](DType to, int64_t saturate) {
    return cpu_test::raw_bytes(cpu_test::runtime().execute(
        "Cast", {input}, {{"dtype", to}, {"saturate", saturate}}));
  };
  using Bits = std::vector<uint8_t>;
  CHECK(bits(DType::kF8E4M3FN, 1) ==
        Bits{0x7E, 0x7E, 0x7E, 0x7E, 0x7E, 0xFE, 0x7F, 0x01, 0x00, 0x80, 0x77, 0x7E, 0x7E});
  CHECK(bits(DType::kF8E4M3FN, 0) ==
        Bits{0x7E, 0x7E, 0x7F, 0x7F, 0x7F, 0xFF, 0x7F, 0x01, 0x00, 0x80, 0x77, 0x7F, 0x7F});
  // uz: no -0 (it is +0), one NaN (0x80), and 240 the largest.
  CHECK(bits(DType::kF8E4M3FNUZ, 1) ==
        Bits{0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0xFF, 0x80, 0x02, 0x01, 0x00, 0x7F, 0x7F, 0x7F});
  CHECK(bits(DType::kF8E4M3FNUZ, 0) ==
        Bits{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x02, 0x01, 0x00, 0x7F, 0x80, 0x80});
  // e5m2 has infinities: without saturate, overflow gives them.
  // 240 is the tie between 224 and 256 there, which is even. 61440 without saturate rounds to
  // infinity, as IEEE 754 has it (onnx 1.16's reference gives NaN, 0x7F).
  CHECK(bits(DType::kF8E5M2, 1) ==
        Bits{0x5F, 0x5F, 0x5F, 0x7B, 0x7B, 0xFB, 0x7F, 0x18, 0x14, 0x80, 0x5C, 0x7B, 0x7B});
  CHECK(bits(DType::kF8E5M2, 0) ==
        Bits{0x5F, 0x5F, 0x5F, 0x7C, 0x7C, 0xFC, 0x7F, 0x18, 0x14, 0x80, 0x5C, 0x7B, 0x7C});
  CHECK(bits(DType::kF8E5M2FNUZ, 1) ==
        Bits{0x63, 0x63, 0x63, 0x7F, 0x7F, 0xFF, 0x80, 0x1C, 0x18, 0x00, 0x60, 0x7F, 0x7F});
  CHECK(bits(DType::kF8E5M2FNUZ, 0) ==
        Bits{0x63, 0x63, 0x63, 0x80, 0x80, 0x80, 0x80, 0x1C, 0x18, 0x00, 0x60, 0x7F, 0x80});
}
