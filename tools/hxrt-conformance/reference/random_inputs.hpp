// Seeded random input tensors. Each check draws from a generator of its own, seeded from the
// run's seed (--seed) and the check's name, so that one check's inputs do not depend on which
// other kernels the plugin registers, and --seed reproduces any failure.
#pragma once

#include <cstdint>
#include <random>
#include <string>

#include "reference/host_tensor.hpp"

namespace hxrt_conformance {

// The values an input takes. Integers stay small so that no sum or product of the kit's
// cases overflows, and every result is exact in double.
enum class ValueRange {
  kSmall,    // floats in [-1, 1], integers in [-20, 20]
  kDivisor,  // nonzero: floats with magnitude in [0.25, 1], integers in [-7, 7]
  kWide,     // floats in [-100, 100], integers in [-100, 100], about one in eight exactly 0
};

class RandomInputs {
 public:
  RandomInputs(uint64_t seed, const std::string& check);

  // Random elements of `dtype` (bool: 0 or 1), each representable in it.
  HostTensor tensor(hx_dtype dtype, const Shape& shape, ValueRange range = ValueRange::kSmall);
  // One value in [low, high].
  double uniform(double low, double high);

 private:
  double element(hx_dtype dtype, ValueRange range);

  std::mt19937_64 engine_;
};

}  // namespace hxrt_conformance
