#include "reference/elementwise.hpp"

#include <cmath>

#include "reference/broadcast.hpp"

namespace hxrt_conformance {
namespace {

double apply(BinaryOp op, double x, double y, bool integer) {
  switch (op) {
    case BinaryOp::kAdd: return x + y;
    case BinaryOp::kSub: return x - y;
    case BinaryOp::kMul: return x * y;
    case BinaryOp::kDiv: return integer ? std::trunc(x / y) : x / y;
  }
  return 0;
}

}  // namespace

HostTensor binary_reference(BinaryOp op, const HostTensor& x, const HostTensor& y) {
  const hx_dtype dtype = x.spec.dtype;
  HostTensor out{{dtype, broadcast_shape(x.spec.shape, y.spec.shape)}, {}};
  const Shape& shape = out.spec.shape;
  const Shape x_strides = broadcast_strides(x.spec.shape, shape);
  const Shape y_strides = broadcast_strides(y.spec.shape, shape);
  const int64_t count = element_count(shape);
  for (int64_t i = 0; i < count; ++i) {
    const auto x_at = static_cast<size_t>(strided_offset(i, shape, x_strides));
    const auto y_at = static_cast<size_t>(strided_offset(i, shape, y_strides));
    out.values.push_back(apply(op, x.values[x_at], y.values[y_at], is_integer_dtype(dtype)));
  }
  return out;
}

HostTensor add_n_reference(const std::vector<HostTensor>& inputs) {
  HostTensor out{inputs.front().spec, std::vector<double>(inputs.front().values.size(), 0.0)};
  for (const HostTensor& input : inputs) {
    for (size_t i = 0; i < out.values.size(); ++i) out.values[i] += input.values[i];
  }
  return out;
}

HostTensor relu_reference(const HostTensor& x) {
  HostTensor out{x.spec, {}};
  for (double value : x.values) out.values.push_back(value < 0 ? 0.0 : value);
  return out;
}

}  // namespace hxrt_conformance
