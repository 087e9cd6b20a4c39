// The activations a fused op applies to its result (FusedGemm's and FusedConv's
// `activation`, named as ONNX Runtime's contrib ops name them): ops of the core's own, of one
// input, that the fusion pass (graph/optimize) folds into the op before them. LeakyRelu's
// slope travels as the fused op's `activation_alpha`. A fused op is its base op's schema with
// those two attributes (fused_schema).
#pragma once

#include <string>
#include <vector>

#include "ops/op_schema.hpp"

namespace hxrt::detail {

// "Relu", "LeakyRelu", "Sigmoid", "Tanh", "Gelu" (exact, erf's: Gelu's approximate "none").
const std::vector<std::string>& fused_activations();
// Those names, comma-separated, for messages and specifications.
std::string fused_activation_list();
bool is_fused_activation(const std::string& op);
// LeakyRelu's slope when its node sets none (ONNX's default).
inline constexpr double kLeakyReluDefaultAlpha = 0.01;
// `activation` of x, in double, for the reference cases.
double apply_fused_activation(const std::string& activation, double alpha, double x);

// Checks a fused op's `activation` (one of fused_activations(); where not `required`, absent
// or "" too) and `activation_alpha`; rejects the call (Error(kInvalidArgument)) naming what
// was wrong.
void check_fused_activation(const InferContext& call, bool required = true);

// Declares `activation` and `activation_alpha` on `schema`, applied to `applied_to`.
void add_activation_attrs(OpSchema& schema, const std::string& applied_to, bool required);

// `base` (an ONNX op's schema) as the fused op `name`: its attributes, `activation` and
// `activation_alpha`, with `infer` (the base's inference, then check_fused_activation) and
// `cases` (the base's reference cases through with_each_activation). Not importable.
OpSchema fused_schema(const OpSchema& base, const std::string& name, InferFn infer,
                      ReferenceCasesFn cases);

// The base op's reference cases, once per activation, with the activation set and applied to
// the expected output.
std::vector<ReferenceCase> with_each_activation(ReferenceCasesFn base_cases, DType type,
                                                DType output_type, RandomValues& random);

}  // namespace hxrt::detail
