#include "ops/fused_activation.hpp"

#include <algorithm>
#include <cmath>

namespace hxrt::detail {

const std::vector<std::string>& fused_activations() {
  static const std::vector<std::string> names = {"Relu", "LeakyRelu", "Sigmoid", "Tanh"};
  return names;
}

bool is_fused_activation(const std::string& op) {
  const std::vector<std::string>& names = fused_activations();
  return std::find(names.begin(), names.end(), op) != names.end();
}

double apply_fused_activation(const std::string& activation, double alpha, double x) {
  if (activation == "Relu") return x > 0 ? x : 0;
  if (activation == "LeakyRelu") return x >= 0 ? x : alpha * x;
  if (activation == "Sigmoid") return 1 / (1 + std::exp(-x));
  return std::tanh(x);
}

}  // namespace hxrt::detail
