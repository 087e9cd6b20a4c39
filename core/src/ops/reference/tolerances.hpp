// How far a kernel's output element may be from the reference (ReferenceCase::tolerance): a
// few units of the dtype's rounding, scaled by the terms a result sums, since rounding errors
// accumulate with each addition in whatever order a kernel adds.
#pragma once

#include <cstdint>

#include "hxrt/dtype.hpp"

namespace hxrt::detail {

// f64 1e-12, f32 1e-5, f16 1e-3, bf16 1e-2; 0 (exact) for i32, i64 and bool.
double element_tolerance(DType dtype);
// For a result that sums `terms` products or elements (MatMul, Sum, AddN).
double reduction_tolerance(DType dtype, int64_t terms);

}  // namespace hxrt::detail
