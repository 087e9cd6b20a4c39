#include "ops/reference/broadcast_cases.hpp"

#include "ops/reference/reference_tensors.hpp"

namespace hxrt::detail {

const std::vector<std::pair<Shape, Shape>>& binary_shapes() {
  static const std::vector<std::pair<Shape, Shape>> shapes = {
      {{3, 5}, {3, 5}}, {{7}, {7}},     {{2, 3, 4}, {2, 3, 4}}, {{}, {}},        {{1}, {1}},
      {{0, 4}, {0, 4}}, {{16, 9}, {16, 9}},
      {{2, 3}, {3}},    {{3}, {2, 3}},  {{2, 1}, {1, 3}},       {{4, 1, 3}, {5, 1}},
      {{3, 1}, {3, 4}}, {{}, {4, 6}},   {{4, 6}, {}},           {{2, 3}, {1}},   {{1, 1}, {}},
      {{1}, {5, 1, 2}}, {{0}, {}},      {{0, 3}, {2, 1, 1}},
  };
  return shapes;
}

ReferenceTensor broadcast_map(const std::vector<ReferenceTensor>& inputs, DType dtype,
                              const std::function<double(const std::vector<double>&)>& function) {
  Shape shape;
  for (const ReferenceTensor& input : inputs) shape = broadcast_shape(shape, input.shape);
  std::vector<Strides> strides;
  for (const ReferenceTensor& input : inputs) {
    strides.push_back(broadcast_strides(input.shape, shape));
  }
  ReferenceTensor out = empty_reference(dtype, shape);
  std::vector<double> values(inputs.size());
  for (int64_t i = 0; i < shape.num_elements(); ++i) {
    for (size_t k = 0; k < inputs.size(); ++k) {
      values[k] = inputs[k].values[static_cast<size_t>(strided_offset(i, shape, strides[k]))];
    }
    out.values.push_back(function(values));
  }
  return out;
}

bool broadcasts(const ReferenceCase& call) {
  for (const ReferenceTensor& input : call.inputs) {
    if (input.shape != call.expected.shape) return true;
  }
  return false;
}

}  // namespace hxrt::detail
