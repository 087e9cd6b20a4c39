// Reference cases of ConvTranspose: each input element scatters its kernel, scaled, into the
// output (taps landing outside it are dropped), in double, onto the bias.
#include <string>
#include <utility>

#include "base/tensor_meta.hpp"
#include "ops/builtin_op_families.hpp"
#include "ops/reference/random_values.hpp"
#include "ops/reference/reference_tensors.hpp"
#include "ops/reference/tolerances.hpp"
#include "ops/reference/windows.hpp"

namespace hxrt::detail {
namespace {

struct TransposeCall {
  Shape x, w;
  bool bias;
  Attrs attrs;
};

ReferenceTensor conv_transpose_reference(const ReferenceCase& call) {
  const ReferenceTensor& x = call.inputs[0];
  const ReferenceTensor& w = call.inputs[1];
  const std::vector<int64_t> w_dims = w.shape.to_vector();
  const std::vector<int64_t> kernel(w_dims.begin() + 2, w_dims.end());
  std::vector<TensorMeta> metas;
  for (const ReferenceTensor& input : call.inputs) metas.push_back({input.dtype, input.shape});
  const InferContext context{std::string("ConvTranspose"), metas.data(), metas.size(),
                             call.attrs};
  const TransposedWindow window = conv_transpose_geometry(context, x.shape, kernel);
  const std::vector<int64_t> x_dims = x.shape.to_vector();
  const std::vector<int64_t> in(x_dims.begin() + 2, x_dims.end());
  const int64_t batch = x.shape[0];
  const int64_t in_channels = x.shape[1];
  const int64_t group_out = w.shape[1];
  const AttrValue* group_attr = call.attrs.find("group");
  const int64_t group = group_attr == nullptr ? 1 : std::get<int64_t>(*group_attr);
  const int64_t channels_per_group = in_channels / group;
  const int64_t out_channels = group_out * group;
  const int64_t out_count = count_of(window.output);
  const int64_t in_count = count_of(in);
  const int64_t taps = count_of(kernel);
  std::vector<double> y(static_cast<size_t>(batch * out_channels * out_count), 0.0);
  for (int64_t n = 0; n < batch; ++n) {
    for (int64_t c = 0; c < in_channels; ++c) {
      const int64_t g = c / channels_per_group;
      for (int64_t i = 0; i < in_count; ++i) {
        const std::vector<int64_t> at = coordinates(i, in);
        const double value = x.values[static_cast<size_t>((n * in_channels + c) * in_count + i)];
        for (int64_t tap = 0; tap < taps; ++tap) {
          const std::vector<int64_t> offset = coordinates(tap, kernel);
          int64_t position = 0;
          bool inside = true;
          for (size_t axis = 0; axis < in.size() && inside; ++axis) {
            const int64_t o = at[axis] * window.strides[axis] - window.pads_begin[axis] +
                              offset[axis] * window.dilations[axis];
            inside = o >= 0 && o < window.output[axis];
            position = position * window.output[axis] + o;
          }
          if (!inside) continue;
          for (int64_t m = 0; m < group_out; ++m) {
            const int64_t channel = g * group_out + m;
            const double weight = w.values[static_cast<size_t>((c * group_out + m) * taps + tap)];
            y[static_cast<size_t>((n * out_channels + channel) * out_count + position)] +=
                value * weight;
          }
        }
      }
    }
  }
  Shape out_shape{batch, out_channels};
  for (const int64_t extent : window.output) out_shape.push_back(extent);
  ReferenceTensor out = empty_reference(x.dtype, out_shape);
  for (size_t index = 0; index < y.size(); ++index) {
    const int64_t channel = static_cast<int64_t>(index) / out_count % out_channels;
    const double bias =
        call.inputs.size() == 3 ? call.inputs[2].values[static_cast<size_t>(channel)] : 0.0;
    out.values.push_back(y[index] + bias);
  }
  return out;
}

}  // namespace

std::vector<ReferenceCase> conv_transpose_cases(DType type, DType, RandomValues& random) {
  using Ints = std::vector<int64_t>;
  const std::vector<TransposeCall> calls = {
      {{1, 1, 3, 3}, {1, 1, 3, 3}, false, {}},
      {{2, 3, 4, 3}, {3, 2, 3, 2}, true, {{"strides", Ints{2, 2}}}},
      {{1, 2, 4, 4}, {2, 3, 3, 3}, true, {{"strides", Ints{2, 2}}, {"pads", Ints{1, 1, 1, 1}}}},
      {{1, 2, 3, 4}, {2, 2, 3, 3}, false,
       {{"strides", Ints{2, 3}}, {"pads", Ints{1, 0, 0, 1}}, {"output_padding", Ints{1, 2}}}},
      {{1, 2, 4, 4}, {2, 2, 2, 2}, true, {{"dilations", Ints{2, 2}}}},
      {{1, 4, 3, 3}, {4, 3, 3, 3}, true, {{"group", int64_t{2}}, {"strides", Ints{2, 1}}}},
      {{1, 2, 3, 4}, {2, 2, 3, 3}, true,
       {{"strides", Ints{2, 2}}, {"output_shape", Ints{6, 8}}}},
      // Larger than the 7 x 9 the input, kernel and stride give: the rest is the bias alone.
      {{1, 2, 3, 4}, {2, 2, 3, 3}, true,
       {{"strides", Ints{2, 2}}, {"output_shape", Ints{8, 10}}}},
      {{1, 2, 3, 4}, {2, 2, 3, 3}, false,
       {{"strides", Ints{2, 2}}, {"auto_pad", std::string("SAME_UPPER")}}},
      {{1, 2, 3, 4}, {2, 2, 2, 3}, false,
       {{"strides", Ints{2, 2}}, {"auto_pad", std::string("SAME_LOWER")}}},
      {{2, 3, 5}, {3, 2, 3}, true, {{"strides", Ints{3}}, {"pads", Ints{1, 2}}}},
      {{1, 2, 2, 3, 2}, {2, 2, 2, 2, 2}, true, {{"strides", Ints{2, 1, 2}}}},
      {{0, 2, 3, 3}, {2, 2, 3, 3}, true, {}},
  };
  std::vector<ReferenceCase> cases;
  for (const TransposeCall& call : calls) {
    ReferenceCase transposed;
    transposed.inputs = {random.tensor(type, call.x), random.tensor(type, call.w)};
    const AttrValue* group = call.attrs.find("group");
    const int64_t groups = group == nullptr ? 1 : std::get<int64_t>(*group);
    if (call.bias) transposed.inputs.push_back(random.tensor(type, Shape{call.w[1] * groups}));
    transposed.attrs = call.attrs;
    transposed.expected = conv_transpose_reference(transposed);
    int64_t taps = call.x[1] / groups;
    for (int axis = 2; axis < call.w.rank(); ++axis) taps *= call.w[axis];
    transposed.tolerance = reduction_tolerance(type, taps + 1);
    cases.push_back(std::move(transposed));
  }
  return cases;
}

}  // namespace hxrt::detail
