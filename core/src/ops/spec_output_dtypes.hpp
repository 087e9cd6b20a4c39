// An op's output dtypes as its specification types them (OpSchema::outputs), for a node whose
// shape inference cannot run yet: one whose attributes a run computes (GraphNode::attr_inputs)
// or whose inputs' shapes are provisional.
#pragma once

#include <optional>
#include <vector>

#include "hxrt/attrs.hpp"
#include "hxrt/dtype.hpp"
#include "ops/op_schema.hpp"

namespace hxrt::detail {

// The dtypes of a call's `num_outputs` outputs, from inputs of `input_dtypes` and `attrs`: an
// output typed "T" has the type parameter's dtype (from its input, or its dtype attribute), one
// typed by a dtype attribute has that attribute's value (or default), one of a single dtype
// (TopK's int64 indices) has it. nullopt where the specification does not tell (a custom op,
// which has none).
std::optional<std::vector<DType>> spec_output_dtypes(const OpSchema& schema,
                                                     const std::vector<DType>& input_dtypes,
                                                     const Attrs& attrs, int num_outputs);

}  // namespace hxrt::detail
