// The core ops' executable specification: for each core op, calls that cover its shape rule
// (non-square, one-element, empty, rank 0, broadcast operands, every attribute and its
// absence) with seeded random inputs, and the output a double-precision reference computes
// for each. The conformance kit holds every plugin's kernels to them; a plugin's own tests may
// do the same. Each op's reference is written beside its schema in the core, so that an op
// and its reference cannot drift apart.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hxrt/attrs.hpp"
#include "hxrt/dtype.hpp"
#include "hxrt/export.hpp"
#include "hxrt/shape.hpp"

namespace hxrt {

// A tensor as the reference sees it: each value exactly a value of `dtype` (integers are kept
// small, so that every sum and product of the cases is exact in double too).
struct ReferenceTensor {
  DType dtype = DType::kF32;
  Shape shape;
  std::vector<double> values;  // row-major, one per element; bool as 0 or 1
};

// One call of an op and what it must give.
struct ReferenceCase {
  std::vector<ReferenceTensor> inputs;
  Attrs attrs;
  // The op's outputs: `expected` is output 0, which every op has, and `more_expected` holds
  // outputs 1 and on of an op with several (LayerNormalization's Mean and InvStdDev, TopK's
  // indices, Split's further parts). expected_outputs lists them all.
  ReferenceTensor expected;
  std::vector<ReferenceTensor> more_expected;
  // How far an output element may be from the reference: |got - expected| <= tolerance *
  // max(1, |expected|), since the rounding error of a result grows with its magnitude and the
  // inputs are of order 1. 0: exact (integer and bool results, copies). A few units of the
  // dtype's rounding, times the number of terms a result sums (MatMul, Sum, AddN).
  double tolerance = 0;
  // The inputs reach a kernel broadcast to the output's shape, with stride 0 along the axes
  // where they repeat (the ops whose OpInfo::broadcasts is set, on operands of other shapes).
  bool broadcast = false;
  // For an op whose extents are known at run (OpInfo::extents_at_run, NonZero): the shapes
  // its outputs are allocated with, the most shape inference allows, one per output; the
  // kernel reports the expected outputs' extents. Empty for every other op.
  std::vector<Shape> output_bounds;
};

// Every output `reference` expects, in the op's order: what a check of all of them walks.
inline std::vector<const ReferenceTensor*> expected_outputs(const ReferenceCase& reference) {
  std::vector<const ReferenceTensor*> outputs{&reference.expected};
  for (const ReferenceTensor& output : reference.more_expected) outputs.push_back(&output);
  return outputs;
}

// The cases of core op `op` with type parameter `type`; `output_type` is the dtype a
// converting op (Cast) converts to, and is ignored by the others. The inputs come from a
// generator seeded with `seed`: one seed gives the same cases on every run and machine. Empty
// when the core never runs `op` with `type` (its shape inference refuses it, as the arithmetic
// ops refuse bool). Error(kNotFound) when `op` is not a core op (hxrt::core_ops() lists them);
// Error(kInvalidArgument) for a `type` or `output_type` outside DType.
HXRT_API std::vector<ReferenceCase> reference_cases(const std::string& op, DType type,
                                                    DType output_type, uint64_t seed);

// Seeded random values of `dtype` and `shape`, drawn as the reference cases draw theirs (floats
// in [-1, 1], integers in [-20, 20], bool 0 or 1): inputs for an op the core has no reference
// for, such as a plugin's custom op. Error(kInvalidArgument) for a `dtype` outside DType.
HXRT_API ReferenceTensor random_reference_tensor(DType dtype, const Shape& shape, uint64_t seed);

}  // namespace hxrt
