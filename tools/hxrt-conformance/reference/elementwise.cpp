#include "reference/elementwise.hpp"

#include <cmath>

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

Shape binary_output_shape(const Shape& x, const Shape& y) {
  const bool x_is_one = element_count(x) == 1;
  const bool y_is_one = element_count(y) == 1;
  if (x == y) return x;
  if (x_is_one && y_is_one) return x.size() >= y.size() ? x : y;
  return x_is_one ? y : x;
}

HostTensor binary_reference(BinaryOp op, const HostTensor& x, const HostTensor& y) {
  const hx_dtype dtype = x.spec.dtype;
  HostTensor out{{dtype, binary_output_shape(x.spec.shape, y.spec.shape)}, {}};
  const size_t count = static_cast<size_t>(element_count(out.spec.shape));
  // A one-element operand that does not match the output's count is the broadcast one.
  const bool x_broadcast = x.values.size() != count;
  const bool y_broadcast = y.values.size() != count;
  for (size_t i = 0; i < count; ++i) {
    out.values.push_back(apply(op, x.values[x_broadcast ? 0 : i], y.values[y_broadcast ? 0 : i],
                               is_integer_dtype(dtype)));
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
