#include "reference/random_inputs.hpp"

#include <vector>

#include <hxcommon/stable_hash.hpp>

namespace hxrt_conformance {
namespace {

std::mt19937_64 seeded_engine(uint64_t seed, const std::string& check) {
  const uint64_t name = hxcommon::stable_hash(check);
  std::seed_seq sequence{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32),
                         static_cast<uint32_t>(name), static_cast<uint32_t>(name >> 32)};
  return std::mt19937_64(sequence);
}

}  // namespace

RandomInputs::RandomInputs(uint64_t seed, const std::string& check)
    : engine_(seeded_engine(seed, check)) {}

double RandomInputs::uniform(double low, double high) {
  return std::uniform_real_distribution<double>(low, high)(engine_);
}

double RandomInputs::element(hx_dtype dtype, ValueRange range) {
  if (dtype == HX_DTYPE_BOOL) return std::uniform_int_distribution<int>(0, 1)(engine_);
  const bool integer = is_integer_dtype(dtype);
  switch (range) {
    case ValueRange::kSmall:
      if (integer) return std::uniform_int_distribution<int>(-20, 20)(engine_);
      return to_dtype(uniform(-1, 1), dtype);
    case ValueRange::kDivisor: {
      const double sign = std::uniform_int_distribution<int>(0, 1)(engine_) == 0 ? -1 : 1;
      if (integer) return sign * std::uniform_int_distribution<int>(1, 7)(engine_);
      return sign * to_dtype(uniform(0.25, 1), dtype);
    }
    case ValueRange::kWide:
      if (std::uniform_int_distribution<int>(0, 7)(engine_) == 0) return 0;
      if (integer) return std::uniform_int_distribution<int>(-100, 100)(engine_);
      return to_dtype(uniform(-100, 100), dtype);
  }
  return 0;
}

HostTensor RandomInputs::tensor(hx_dtype dtype, const Shape& shape, ValueRange range) {
  HostTensor out{{dtype, shape}, {}};
  const int64_t count = element_count(shape);
  for (int64_t i = 0; i < count; ++i) out.values.push_back(element(dtype, range));
  return out;
}

}  // namespace hxrt_conformance
