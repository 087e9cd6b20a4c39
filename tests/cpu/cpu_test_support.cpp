#include "cpu_test_support.hpp"

#include <catch2/catch.hpp>
#include <hxcommon/element_values.hpp>

#include <algorithm>
#include <cmath>
#include <string>

namespace cpu_test {
namespace {

hxrt::Runtime make_runtime() {
  hxrt::RuntimeOptions options;
  options.use_installed_plugins = false;
  options.plugin_paths = {std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_cpu.so"};
  hxrt::Runtime runtime = hxrt::Runtime::create(options);
  const bool loaded =
      std::any_of(runtime.load_report().begin(), runtime.load_report().end(),
                  [](const hxrt::PluginReport& report) { return report.loaded && report.name == "cpu"; });
  if (!loaded) {
    std::string reasons;
    for (const hxrt::PluginReport& report : runtime.load_report()) {
      reasons += report.path + ": " + report.reason + "\n";
    }
    FAIL("the CPU plugin did not load:\n" << reasons);
  }
  return runtime;
}

struct NarrowFormat {
  int mantissa_bits;
  int bias;
};

NarrowFormat narrow_format(hxrt::DType dtype) {
  return dtype == hxrt::DType::kF16 ? NarrowFormat{10, 15} : NarrowFormat{7, 127};
}

// The value of a non-negative pattern; the infinity pattern reads as 2^(bias+1), the value
// the next binade would start at, which makes overflow round like any other value.
long double narrow_magnitude(uint16_t bits, NarrowFormat format) {
  const int exponent_field = bits >> format.mantissa_bits;
  const long double fraction = bits & ((1 << format.mantissa_bits) - 1);
  if (exponent_field == 0) return std::ldexp(fraction, 1 - format.bias - format.mantissa_bits);
  return std::ldexp(fraction + std::ldexp(1.0L, format.mantissa_bits),
                    exponent_field - format.bias - format.mantissa_bits);
}

long double narrow_value(uint16_t bits, NarrowFormat format) {
  const int all_ones = 2 * format.bias + 1;
  const uint16_t magnitude_bits = bits & 0x7FFF;
  const bool negative = (bits & 0x8000) != 0;
  long double magnitude;
  if ((magnitude_bits >> format.mantissa_bits) == all_ones) {
    const bool is_nan = (magnitude_bits & ((1 << format.mantissa_bits) - 1)) != 0;
    magnitude = is_nan ? NAN : INFINITY;
  } else {
    magnitude = narrow_magnitude(magnitude_bits, format);
  }
  return negative ? -magnitude : magnitude;
}

template <class T>
T load(const std::vector<uint8_t>& bytes, size_t index) {
  T value;
  std::memcpy(&value, bytes.data() + index * sizeof(T), sizeof(T));
  return value;
}

}  // namespace

hxrt::Runtime& runtime() {
  static hxrt::Runtime instance = make_runtime();
  return instance;
}

hxrt::Tensor raw_tensor(hxrt::DType dtype, const hxrt::Shape& shape,
                        const std::vector<uint8_t>& bytes) {
  return runtime().from_host(dtype, shape, bytes.data(), bytes.size());
}

std::vector<uint8_t> raw_bytes(const hxrt::Tensor& tensor) {
  std::vector<uint8_t> bytes(tensor.byte_size());
  tensor.copy_to_host(bytes.data(), bytes.size());
  return bytes;
}

long double element_value(hxrt::DType dtype, const std::vector<uint8_t>& bytes, size_t index) {
  switch (dtype) {
    case hxrt::DType::kF32: return load<float>(bytes, index);
    case hxrt::DType::kF64: return load<double>(bytes, index);
    case hxrt::DType::kF16:
    case hxrt::DType::kBF16: return narrow_value(load<uint16_t>(bytes, index), narrow_format(dtype));
    case hxrt::DType::kI32: return load<int32_t>(bytes, index);
    case hxrt::DType::kI64: return static_cast<long double>(load<int64_t>(bytes, index));
    case hxrt::DType::kBool: return bytes[index] != 0 ? 1 : 0;
    case hxrt::DType::kI8: return load<int8_t>(bytes, index);
    case hxrt::DType::kU8: return load<uint8_t>(bytes, index);
    case hxrt::DType::kI16: return load<int16_t>(bytes, index);
    case hxrt::DType::kU16: return load<uint16_t>(bytes, index);
    case hxrt::DType::kU32: return load<uint32_t>(bytes, index);
    case hxrt::DType::kU64: return static_cast<long double>(load<uint64_t>(bytes, index));
    case hxrt::DType::kF8E4M3FN:
    case hxrt::DType::kF8E4M3FNUZ:
    case hxrt::DType::kF8E5M2:
    case hxrt::DType::kF8E5M2FNUZ:
      return hxcommon::element_to_double(bytes.data(), static_cast<int32_t>(dtype), index);
  }
  FAIL("unknown dtype");
  return 0;
}

uint16_t nearest_narrow_float(hxrt::DType dtype, long double value) {
  const NarrowFormat format = narrow_format(dtype);
  const uint16_t infinity = static_cast<uint16_t>((2 * format.bias + 1) << format.mantissa_bits);
  const uint16_t sign = std::signbit(value) ? 0x8000 : 0;
  if (std::isnan(value)) return infinity | (1 << (format.mantissa_bits - 1));
  const long double magnitude = std::fabs(value);
  if (std::isinf(magnitude)) return sign | infinity;
  // Non-negative patterns are ordered like their values: find the last one not above.
  uint16_t low = 0;
  uint16_t high = infinity;
  while (high - low > 1) {
    const uint16_t middle = static_cast<uint16_t>((low + high) / 2);
    if (narrow_magnitude(middle, format) <= magnitude) {
      low = middle;
    } else {
      high = middle;
    }
  }
  if (narrow_magnitude(low, format) == magnitude) return sign | low;
  const long double below = magnitude - narrow_magnitude(low, format);
  const long double above = narrow_magnitude(high, format) - magnitude;
  const uint16_t nearest = below < above ? low : above < below ? high : (low % 2 == 0 ? low : high);
  return sign | nearest;
}

}  // namespace cpu_test
