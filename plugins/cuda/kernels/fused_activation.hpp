// The activation of a fused op (FusedConv's and FusedGemm's `activation` and
// `activation_alpha`), read once when the kernel instance is made.
#pragma once

#include <hxrt/plugin_api.h>
#include <hxplugin/kernel_create.hpp>

#include "kernels/launchers.hpp"

namespace hxcuda::kernels {

struct FusedActivation {
  Activation kind = Activation::kNone;
  float alpha = 0.01f;  // LeakyRelu's slope below 0 (ONNX's default)
};

// Reads the attributes: `activation` absent is none. An activation the GPU kernels do not
// apply is declined (UNIMPLEMENTED, naming it), so that under a core that knows more of them
// the op falls back to another device rather than failing.
hx_status* read_fused_activation(const hxplugin::KernelCreate& create, const char* op,
                                 FusedActivation* out);

}  // namespace hxcuda::kernels
