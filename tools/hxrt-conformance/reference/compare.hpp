// Comparing a kernel's output with the reference, and saying where they differ.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "reference/host_tensor.hpp"
#include "reference/tolerance.hpp"

namespace hxrt_conformance {

struct Mismatch {
  size_t index = 0;  // row-major, into the output
  double got = 0;
  double expected = 0;
};

// The first element of `got` (the output read back) outside `tolerance` of `expected`.
std::optional<Mismatch> first_mismatch(const HostTensor& expected, const std::vector<double>& got,
                                       Tolerance tolerance);

// "element 7 (at [1, 2]) is -0.5, the reference is 0": the value printed as precisely as the
// output's dtype holds it.
std::string mismatch_text(const Mismatch& mismatch, const TensorSpec& output);

}  // namespace hxrt_conformance
