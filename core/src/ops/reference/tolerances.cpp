#include "ops/reference/tolerances.hpp"

#include <algorithm>

namespace hxrt::detail {

double element_tolerance(DType dtype) {
  switch (dtype) {
    case DType::kF64: return 1e-12;
    case DType::kF32: return 1e-5;
    case DType::kF16: return 1e-3;
    case DType::kBF16: return 1e-2;
    default: return 0;  // integers and bool: exact
  }
}

double reduction_tolerance(DType dtype, int64_t terms) {
  return element_tolerance(dtype) * static_cast<double>(std::max<int64_t>(terms, 1));
}

}  // namespace hxrt::detail
