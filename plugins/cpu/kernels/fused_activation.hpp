// The activation a fused kernel applies as it writes its output (FusedGemm's `activation` and
// `activation_alpha`): read once when the kernel instance is made, applied either by oneDNN as
// a post-op or by apply() in the kernel's own last pass.
#pragma once

#include <hxplugin/kernel_create.hpp>

#include <cmath>
#include <cstring>

namespace hxcpu {

struct FusedActivation {
  enum class Kind { kNone, kRelu, kLeakyRelu, kSigmoid, kTanh, kGelu };
  Kind kind = Kind::kNone;
  double alpha = 0.01;  // LeakyRelu's slope below 0

  // y as the activation gives it, in the accumulation type W.
  template <class W>
  W apply(W y) const {
    switch (kind) {
      case Kind::kRelu: return y > 0 ? y : W(0);
      case Kind::kLeakyRelu: return y >= 0 ? y : static_cast<W>(alpha) * y;
      case Kind::kSigmoid: return W(1) / (W(1) + std::exp(-y));
      case Kind::kTanh: return std::tanh(y);
      case Kind::kGelu: return W(0.5) * y * (W(1) + std::erf(y * W(0.70710678118654752440)));
      case Kind::kNone: break;
    }
    return y;
  }
};

// The instance's activation, from the create call's attributes; INVALID_ARGUMENT for a name
// the kernel does not know (the core's inference accepts only those it does).
inline hx_status* read_fused_activation(const hxplugin::KernelCreate& create, const char* op,
                                        FusedActivation* activation) {
  const char* name = "";
  if (hx_status* status = create.attr_string("activation", &name)) return status;
  if (hx_status* status = create.attr_float("activation_alpha", &activation->alpha)) {
    return status;
  }
  if (*name == '\0') return nullptr;  // absent: none (BlockedConv's is optional)
  using Kind = FusedActivation::Kind;
  const struct {
    const char* name;
    Kind kind;
  } known[] = {{"Relu", Kind::kRelu}, {"LeakyRelu", Kind::kLeakyRelu},
               {"Sigmoid", Kind::kSigmoid}, {"Tanh", Kind::kTanh}, {"Gelu", Kind::kGelu}};
  for (const auto& entry : known) {
    if (std::strcmp(name, entry.name) == 0) {
      activation->kind = entry.kind;
      return nullptr;
    }
  }
  return create.error(HX_INVALID_ARGUMENT,
                      "%s: activation '%s' is not one the CPU kernel applies (Relu, LeakyRelu, "
                      "Sigmoid, Tanh, Gelu)", op, name);
}

}  // namespace hxcpu
