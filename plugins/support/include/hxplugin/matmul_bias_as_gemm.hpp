// A MatMulBias call (hxrt's fused linear layer, ABI 2.11) as the Gemm call it is: A [..., K]
// as the matrix [rows, K], Y [..., N] as [rows, N], the bias as C of [N]. The core passes
// MatMulBias dense views (hx_tensor_view), so only the shapes and strides change, and a
// plugin runs its Gemm kernel on them: MatMulBias's attributes are Gemm's defaults (no
// transposes, alpha and beta 1) plus the activation FusedGemm reads.
#pragma once

#include <hxrt/plugin_api.h>

#include <cstdint>

namespace hxplugin {

class MatMulBiasAsGemm {
 public:
  explicit MatMulBiasAsGemm(const hx_kernel_args& args) : args_(args) {
    const hx_tensor_view& a = args.inputs[0];
    const hx_tensor_view& bias = args.inputs[2];
    const hx_tensor_view& y = args.outputs[0];
    int64_t rows = 1;  // no overflow: the core sized A's dense bytes
    for (int32_t axis = 0; axis + 1 < a.rank; ++axis) rows *= a.shape[axis];
    a_shape_[0] = y_shape_[0] = rows;
    a_shape_[1] = a_strides_[0] = a.shape[a.rank - 1];
    y_shape_[1] = y_strides_[0] = y.shape[y.rank - 1];
    bias_shape_[0] = bias.shape[bias.rank - 1];
    inputs_[0] = as_view(a, 2, a_shape_, a_strides_);
    inputs_[1] = args.inputs[1];
    inputs_[2] = as_view(bias, 1, bias_shape_, kUnit);
    output_ = as_view(y, 2, y_shape_, y_strides_);
    args_.inputs = inputs_;
    args_.outputs = &output_;
  }
  MatMulBiasAsGemm(const MatMulBiasAsGemm&) = delete;
  MatMulBiasAsGemm& operator=(const MatMulBiasAsGemm&) = delete;

  // The Gemm call's arguments, valid while this object lives (they point into it).
  const hx_kernel_args* args() const { return &args_; }

 private:
  static hx_tensor_view as_view(hx_tensor_view view, int32_t rank, const int64_t* shape,
                                const int64_t* strides) {
    view.rank = rank;
    view.shape = shape;
    view.strides = strides;
    return view;
  }

  static constexpr int64_t kUnit[1] = {1};
  hx_kernel_args args_;
  hx_tensor_view inputs_[3];
  hx_tensor_view output_;
  int64_t a_shape_[2] = {0, 0};
  int64_t a_strides_[2] = {0, 1};
  int64_t y_shape_[2] = {0, 0};
  int64_t y_strides_[2] = {0, 1};
  int64_t bias_shape_[1] = {0};
};

}  // namespace hxplugin
