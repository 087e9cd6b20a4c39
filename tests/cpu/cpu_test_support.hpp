// Shared pieces of the CPU kernel tests: a runtime that loads only the freshly built CPU
// plugin, seeded random data, raw-byte tensors for the dtypes without a C++ element type
// (f16, bf16, bool), and reference conversions written independently of the plugin.
#pragma once

#include <hxrt/hxrt.hpp>

#include <cstdint>
#include <cstring>
#include <random>
#include <type_traits>
#include <vector>

namespace cpu_test {

// One runtime per test process, created on first use; fails the test if the CPU plugin did
// not load.
hxrt::Runtime& runtime();

// `count` values drawn with a fixed seed: integers in [-1000, 1000], floats in [-10, 10].
template <class T>
std::vector<T> random_values(size_t count, uint32_t seed) {
  std::mt19937 engine(seed);
  std::vector<T> values(count);
  for (T& value : values) {
    if constexpr (std::is_integral_v<T>) {
      value = static_cast<T>(std::uniform_int_distribution<int>(-1000, 1000)(engine));
    } else {
      value = static_cast<T>(std::uniform_real_distribution<double>(-10, 10)(engine));
    }
  }
  return values;
}

// A tensor of any dtype from its raw element bytes.
hxrt::Tensor raw_tensor(hxrt::DType dtype, const hxrt::Shape& shape,
                        const std::vector<uint8_t>& bytes);
// A tensor's raw element bytes.
std::vector<uint8_t> raw_bytes(const hxrt::Tensor& tensor);

// Element `index` of a raw buffer of dtype `dtype`, as an exact long double (f16 and bf16
// decoded from their bit fields, bool as 0 or 1). long double holds every int64 and uint64
// exactly.
long double element_value(hxrt::DType dtype, const std::vector<uint8_t>& bytes, size_t index);

// The f16 or bf16 bit pattern nearest to `value`, ties to the even pattern, overflow to
// infinity: found by searching the ordered finite patterns, not by bit arithmetic, so that
// it checks the plugin's encoder rather than repeating it. NaN gives 0x7E00 / 0x7FC0.
uint16_t nearest_narrow_float(hxrt::DType dtype, long double value);

template <class T>
std::vector<uint8_t> to_bytes(const std::vector<T>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

}  // namespace cpu_test
