// How far a kernel's element may be from the reference value. One bound serves as both an
// absolute and a relative tolerance: |got - expected| <= bound * max(1, |expected|), since the
// kit's inputs are of order 1 and the rounding error of a result grows with its magnitude.
#pragma once

#include <hxrt/plugin_api.h>

#include <cstdint>
#include <string>

namespace hxrt_conformance {

struct Tolerance {
  double bound = 0;  // 0: the element must be exact (integers, bool)
};

// A few units of the dtype's rounding: f64 1e-12, f32 1e-5, f16 1e-3, bf16 1e-2, else exact.
Tolerance element_tolerance(hx_dtype dtype);
// For a result that sums `length` terms (MatMul, Sum, AddN): the element tolerance scaled by
// the length, as rounding errors accumulate with each addition in whatever order the kernel
// adds.
Tolerance reduction_tolerance(hx_dtype dtype, int64_t length);

// Whether `got` is close enough to `expected`; NaN never is.
bool within(double got, double expected, Tolerance tolerance);

// "tolerance 1e-05", "exact match".
std::string tolerance_text(Tolerance tolerance);

}  // namespace hxrt_conformance
