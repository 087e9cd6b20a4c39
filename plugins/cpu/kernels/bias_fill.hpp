// Conv's and ConvTranspose's output when their product has no terms (X or W without elements):
// each output channel holds its bias, or 0 without one (FusedConv's: through its activation).
#pragma once

#include <algorithm>
#include <cstdint>

#include "kernels/element_convert.hpp"
#include "kernels/element_types.hpp"
#include "kernels/fused_activation.hpp"
#include "kernels/kernel_call.hpp"

namespace hxcpu {
namespace bias_fill_detail {

template <class T>
void fill(const KernelCall& call, const FusedActivation& activation) {
  const hx_tensor_view& y = call.output(0);
  const int64_t channels = y.shape[1];
  const int64_t per_channel = element_count(y) / y.shape[0] / channels;
  T* out = output_data<T>(y);
  for (int64_t n = 0; n < y.shape[0]; ++n) {
    for (int64_t m = 0; m < channels; ++m) {
      const float bias =
          call.num_inputs() == 3 ? convert_element<float>(input_data<T>(call.input(2))[m]) : 0.0f;
      const T value = convert_element<T>(activation.apply(bias));
      std::fill_n(out + (n * channels + m) * per_channel, per_channel, value);
    }
  }
}

}  // namespace bias_fill_detail

// Y is [N, M, spatial...] with elements (so N and M are not 0), of f32, f16 or bf16; the bias,
// when there is one, is input 2 ([M], Y's dtype).
inline void fill_with_bias(const KernelCall& call, const FusedActivation& activation = {}) {
  switch (call.output(0).dtype) {
    case HX_DTYPE_F32:
      bias_fill_detail::fill<float>(call, activation);
      return;
    case HX_DTYPE_F16:
      bias_fill_detail::fill<Half>(call, activation);
      return;
    default:
      bias_fill_detail::fill<BFloat16>(call, activation);
      return;
  }
}

}  // namespace hxcpu
