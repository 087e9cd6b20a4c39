// The pools by walking each window's taps, for what oneDNN's pooling does not give: MaxPool's
// Indices, and AveragePool's divisor when count_include_pad meets a ceil_mode window that
// reaches past the end padding (whose taps ONNX counts for no divisor).
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/kernel_call.hpp"

namespace hxcpu {

struct DirectPoolWindow {
  // Per spatial axis.
  std::vector<int64_t> kernel, strides, dilations, pad_begin, pad_end;
  bool average = false;
  bool count_include_pad = false;
  bool column_major = false;  // MaxPool's storage_order 1: how Indices flattens X's axes
};

// Y (output 0) from X (input 0), [N, C, spatial...]; with a second output, MaxPool's Indices.
hx_status* direct_pool(const KernelCall& call, const DirectPoolWindow& window, const char* op);

}  // namespace hxcpu
