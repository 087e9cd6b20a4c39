// The activations a fused op applies to its result (FusedGemm's `activation`, named as ONNX
// Runtime's contrib ops name them): ops of the core's own, of one input, that the fusion pass
// (graph/optimize) folds into the op before them. LeakyRelu's slope travels as the fused op's
// `activation_alpha`.
#pragma once

#include <string>
#include <vector>

namespace hxrt::detail {

// "Relu", "LeakyRelu", "Sigmoid", "Tanh".
const std::vector<std::string>& fused_activations();
bool is_fused_activation(const std::string& op);
// LeakyRelu's slope when its node sets none (ONNX's default).
inline constexpr double kLeakyReluDefaultAlpha = 0.01;
// `activation` of x, in double, for the reference cases.
double apply_fused_activation(const std::string& activation, double alpha, double x);

}  // namespace hxrt::detail
