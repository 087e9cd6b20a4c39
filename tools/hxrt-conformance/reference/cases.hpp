// The reference cases of each core op, as the kit runs them: the core's own cases
// (hxrt/op_reference.hpp, written beside each op's schema) in the kit's types. The kit keeps
// no list of ops and no reference of its own, so that an op added to the core is checked here
// with nothing added to the kit.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <hxrt/op_reference.hpp>

#include "kit_core.hpp"
#include "reference/host_tensor.hpp"
#include "reference/tolerance.hpp"

namespace hxrt_conformance {

// One call of an op.
struct KernelCase {
  std::vector<HostTensor> inputs;
  KernelAttrs attrs;
  std::vector<HostTensor> expected;  // every output of the call, in order
  Tolerance tolerance;
  // An input reaches the kernel broadcast to the output's shape, with stride 0 where it
  // repeats (the binary element-wise ops).
  bool broadcast = false;
  // For an op whose extents are known at run (NonZero): the shapes its outputs are allocated
  // with; the kernel reports expected's. Empty for the others.
  std::vector<Shape> output_bounds;
};

// How a failure names the case: "on shapes [3, 4] and [4, 5] with transpose_a=true".
std::string case_text(const KernelCase& kernel_case);

// The seed of one check's inputs: the run's seed (--seed) mixed with the check's name, so
// that one check's inputs do not depend on which other kernels the plugin registers, and
// --seed reproduces any failure.
uint64_t check_seed(uint64_t run_seed, const std::string& check);

// The cases of core op `op` with type parameter `dtype`; `output_dtype` is what an op whose
// output dtype is an attribute (Cast) converts to. Empty when the core never runs `op` with
// `dtype` (its shape inference refuses it).
std::vector<KernelCase> reference_cases(const std::string& op, hx_dtype dtype,
                                        hx_dtype output_dtype, uint64_t seed);

// `tensor` of the core's reference in the kit's types.
HostTensor host_tensor(const hxrt::ReferenceTensor& tensor);

// The specs of the outputs a case expects, with output_bounds' shapes where it has them:
// what the kit allocates for the kernel to write.
std::vector<TensorSpec> output_specs(const KernelCase& kernel_case);

}  // namespace hxrt_conformance
