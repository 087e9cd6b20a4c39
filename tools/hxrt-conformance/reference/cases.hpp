// The reference cases of each core op: inputs, attributes, the output the reference computes
// and the tolerance a kernel's output is held to. The shapes cover what the op's shape
// inference accepts: non-square, one-element, empty (an extent of 0), rank 0, broadcasts,
// every transpose of MatMul, Sum over various axes, Cast to the dtype asked for, Fill of every
// rank. Inputs avoid the ops' error cases (integer division by zero or overflow).
#pragma once

#include <string>
#include <vector>

#include "kit_core.hpp"
#include "reference/host_tensor.hpp"
#include "reference/random_inputs.hpp"
#include "reference/tolerance.hpp"

namespace hxrt_conformance {

// One call of an op. Every core op has one output.
struct KernelCase {
  std::vector<HostTensor> inputs;
  KernelAttrs attrs;
  HostTensor expected;
  Tolerance tolerance;
  // An input reaches the kernel broadcast to the output's shape, with stride 0 where it
  // repeats (the binary element-wise ops).
  bool broadcast = false;
};

// How a failure names the case: "on shapes [3, 4] and [4, 5] with transpose_a=true".
std::string case_text(const KernelCase& kernel_case);

// Whether the kit has a reference for `op`: every core op, no custom one.
bool has_reference(const std::string& op);
// Whether the core ever runs `op` with type parameter `dtype`: the shape inference of the
// arithmetic ops (all but Cast, Fill and Identity) refuses bool.
bool core_runs_op_with(const std::string& op, hx_dtype dtype);

// The cases of core op `op` with type parameter `dtype`; `output_dtype` is what Cast converts
// to (other ops ignore it). Inputs are drawn from `random`.
std::vector<KernelCase> reference_cases(const std::string& op, hx_dtype dtype,
                                        hx_dtype output_dtype, RandomInputs& random);

}  // namespace hxrt_conformance
