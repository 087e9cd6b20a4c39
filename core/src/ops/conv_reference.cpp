// Reference cases of Conv: each output element summed in double over its channel group and its
// window's taps inside the input (taps in the padding add zero), plus the bias.
#include <utility>

#include "ops/builtin_op_families.hpp"
#include "ops/fused_activation.hpp"
#include "ops/reference/random_values.hpp"
#include "ops/reference/reference_tensors.hpp"
#include "ops/reference/tolerances.hpp"
#include "ops/reference/windows.hpp"

namespace hxrt::detail {
namespace {

struct ConvCall {
  Shape x, w;
  bool bias;
  Attrs attrs;
};

ReferenceTensor conv_reference(const ReferenceCase& call) {
  const ReferenceTensor& x = call.inputs[0];
  const ReferenceTensor& w = call.inputs[1];
  const std::vector<int64_t> w_dims = w.shape.to_vector();
  const std::vector<int64_t> kernel(w_dims.begin() + 2, w_dims.end());
  const WindowGeometry window = case_window("Conv", call, kernel, false);
  const std::vector<int64_t> x_dims = x.shape.to_vector();
  const std::vector<int64_t> in(x_dims.begin() + 2, x_dims.end());
  const int64_t batch = x.shape[0];
  const int64_t out_channels = w.shape[0];
  const int64_t group_in = w.shape[1];
  const int64_t group_out = out_channels / (x.shape[1] / group_in);
  ReferenceTensor y =
      empty_reference(x.dtype, windowed_shape(Shape{batch, out_channels}, window));
  const int64_t in_count = count_of(in);
  const int64_t taps = count_of(kernel);
  const int64_t out_count = count_of(window.output);
  for (int64_t n = 0; n < batch; ++n) {
    for (int64_t m = 0; m < out_channels; ++m) {
      const int64_t first_channel = m / group_out * group_in;
      for (int64_t o = 0; o < out_count; ++o) {
        const std::vector<int64_t> at = coordinates(o, window.output);
        double sum = call.inputs.size() == 3 ? call.inputs[2].values[static_cast<size_t>(m)] : 0;
        for (int64_t tap = 0; tap < taps; ++tap) {
          const std::vector<int64_t> offset = coordinates(tap, kernel);
          int64_t position = 0;  // row-major within one channel of x
          bool inside = true;
          for (size_t axis = 0; axis < in.size() && inside; ++axis) {
            const int64_t i = at[axis] * window.strides[axis] - window.pads_begin[axis] +
                              offset[axis] * window.dilations[axis];
            inside = i >= 0 && i < in[axis];
            position = position * in[axis] + i;
          }
          if (!inside) continue;
          for (int64_t c = 0; c < group_in; ++c) {
            const int64_t x_index = (n * x.shape[1] + first_channel + c) * in_count + position;
            const int64_t w_index = (m * group_in + c) * taps + tap;
            sum += x.values[static_cast<size_t>(x_index)] * w.values[static_cast<size_t>(w_index)];
          }
        }
        y.values.push_back(sum);
      }
    }
  }
  return y;
}

}  // namespace

std::vector<ReferenceCase> conv_cases(DType type, DType, RandomValues& random) {
  using Ints = std::vector<int64_t>;
  const std::vector<ConvCall> calls = {
      // 2-D: plain, bias, pads, strides, dilations, both, kernel_shape given.
      {{1, 1, 5, 5}, {1, 1, 3, 3}, false, {}},
      {{2, 3, 6, 5}, {4, 3, 3, 2}, true, {}},
      {{1, 2, 5, 5}, {3, 2, 3, 3}, true, {{"pads", Ints{1, 1, 1, 1}}}},
      {{1, 2, 7, 6}, {2, 2, 3, 3}, false, {{"strides", Ints{2, 2}}, {"pads", Ints{1, 0, 0, 1}}}},
      {{1, 2, 7, 7}, {2, 2, 3, 3}, true, {{"dilations", Ints{2, 1}}}},
      {{1, 3, 9, 8}, {2, 3, 2, 3}, true,
       {{"strides", Ints{3, 2}}, {"dilations", Ints{2, 2}}, {"pads", Ints{2, 1, 1, 2}},
        {"kernel_shape", Ints{2, 3}}}},
      // Groups, depthwise included.
      {{1, 4, 5, 5}, {6, 2, 3, 3}, true, {{"group", int64_t{2}}}},
      {{2, 3, 4, 4}, {3, 1, 3, 3}, false, {{"group", int64_t{3}}, {"pads", Ints{1, 1, 1, 1}}}},
      // auto_pad.
      {{1, 2, 5, 6}, {3, 2, 3, 3}, false, {{"auto_pad", std::string("SAME_UPPER")}}},
      {{1, 2, 5, 6}, {3, 2, 2, 2}, true,
       {{"auto_pad", std::string("SAME_LOWER")}, {"strides", Ints{2, 2}}}},
      {{1, 2, 5, 6}, {3, 2, 2, 2}, true,
       {{"auto_pad", std::string("SAME_UPPER")}, {"strides", Ints{2, 2}}}},
      {{1, 2, 6, 5}, {3, 2, 3, 2}, false,
       {{"auto_pad", std::string("VALID")}, {"strides", Ints{2, 1}}}},
      {{1, 2, 5, 5}, {3, 2, 3, 3}, false, {{"auto_pad", std::string("NOTSET")}}},
      // 1-D and 3-D.
      {{2, 3, 10}, {4, 3, 3}, true, {{"strides", Ints{2}}, {"pads", Ints{1, 2}}}},
      {{1, 2, 9}, {2, 1, 4}, false, {{"group", int64_t{2}}, {"dilations", Ints{2}}}},
      {{1, 2, 4, 5, 4}, {3, 2, 2, 3, 2}, true, {{"pads", Ints{1, 0, 1, 0, 1, 1}}}},
      // One element, and an empty batch.
      {{1, 1, 1, 1}, {1, 1, 1, 1}, true, {}},
      {{0, 2, 4, 4}, {3, 2, 3, 3}, true, {}},
  };
  std::vector<ReferenceCase> cases;
  for (const ConvCall& call : calls) {
    ReferenceCase conv;
    conv.inputs = {random.tensor(type, call.x), random.tensor(type, call.w)};
    if (call.bias) conv.inputs.push_back(random.tensor(type, Shape{call.w[0]}));
    conv.attrs = call.attrs;
    conv.expected = conv_reference(conv);
    int64_t taps = call.w[1];
    for (int axis = 2; axis < call.w.rank(); ++axis) taps *= call.w[axis];
    conv.tolerance = reduction_tolerance(type, taps + 1);
    cases.push_back(std::move(conv));
  }
  return cases;
}

std::vector<ReferenceCase> fused_conv_cases(DType type, DType output_type,
                                            RandomValues& random) {
  return with_each_activation(conv_cases, type, output_type, random);
}

}  // namespace hxrt::detail
