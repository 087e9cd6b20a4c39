// Which of compile's passes over a graph run before it is placed (docs/graphs.md,
// "Optimisation"). Each pass is on by default; a switch left unset takes the config's
// graph.<name>. Compile always keeps only the nodes the fetches need.
#pragma once

#include <optional>

namespace hxrt {

struct GraphPasses {
  // Identity nodes, and Dropout nodes whose mask nothing reads, are bypassed: their readers
  // read their input. Not one that is fetched, has control edges or asks for another device
  // than its input's producer (an Identity that moves a value).
  std::optional<bool> remove_identities;
  // A node whose inputs are all constants, or a Shape or Size of a value whose shape compile
  // knows, is computed once at compile and becomes a constant (up to 1 MiB of output beyond its
  // inputs' bytes); an inference BatchNormalization after a Conv of constant weights goes
  // into them.
  std::optional<bool> fold_constants;
  // Gemm or Conv whose only reader is Relu, LeakyRelu, Sigmoid, Tanh or exact Gelu becomes
  // one FusedGemm or FusedConv node (named as the activation); a MatMul of a matrix whose only
  // reader adds a row of bias one MatMulBias node (named as the Add), with an activation after
  // it; exact GELU as exporters write it (Div by sqrt 2, Erf, Add 1, Mul by x, Mul by 0.5)
  // one Gelu node (named as the last Mul); and LayerNormalization's chain before opset 17 one
  // LayerNormalization node (named as its last Add), where the chain goes to a device whose
  // plugin has the fused op (docs/graphs.md): fusing never takes a device from the placer.
  std::optional<bool> fuse_kernels;
  // Convolutions of 2-D float32 images (Conv, FusedConv), and the MaxPool and
  // GlobalAveragePool nodes that read them, keep what passes between them in blocks of 16
  // channels ([N, C / 16, H, W, 16]) as BlockedConv, BlockedMaxPool and
  // BlockedGlobalAveragePool nodes, where the chain goes to a device whose plugin has those
  // ops (the CPU's, with AVX-512): no reorder between them, as ONNX Runtime's NCHWc layout.
  // What the graph's other nodes read or the caller fetches stays plain.
  std::optional<bool> block_channels;
};

}  // namespace hxrt
