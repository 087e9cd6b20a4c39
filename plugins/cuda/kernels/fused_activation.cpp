#include "kernels/fused_activation.hpp"

#include <cstring>

namespace hxcuda::kernels {

hx_status* read_fused_activation(const hxplugin::KernelCreate& create, const char* op,
                                 FusedActivation* out) {
  const char* name = "";
  double alpha = out->alpha;
  if (hx_status* status = create.attr_string("activation", &name)) return status;
  if (hx_status* status = create.attr_float("activation_alpha", &alpha)) return status;
  out->alpha = static_cast<float>(alpha);
  const struct {
    const char* name;
    Activation kind;
  } known[] = {{"", Activation::kNone},
               {"Relu", Activation::kRelu},
               {"LeakyRelu", Activation::kLeakyRelu},
               {"Sigmoid", Activation::kSigmoid},
               {"Tanh", Activation::kTanh},
               {"Gelu", Activation::kGelu}};
  for (const auto& entry : known) {
    if (std::strcmp(name, entry.name) == 0) {
      out->kind = entry.kind;
      return nullptr;
    }
  }
  return create.error(HX_UNIMPLEMENTED,
                      "%s on GPU: no kernel applies the activation '%s' (Relu, LeakyRelu, "
                      "Sigmoid, Tanh and Gelu only)",
                      op, name);
}

}  // namespace hxcuda::kernels
