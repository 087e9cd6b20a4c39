#include "reference/array_ops.hpp"

namespace hxrt_conformance {

HostTensor cast_reference(const HostTensor& x, hx_dtype dtype) {
  HostTensor out{{dtype, x.spec.shape}, {}};
  for (double value : x.values) out.values.push_back(to_dtype(value, dtype));
  return out;
}

HostTensor fill_reference(const Shape& shape, double value, hx_dtype dtype) {
  return HostTensor{
      {dtype, shape},
      std::vector<double>(static_cast<size_t>(element_count(shape)), to_dtype(value, dtype))};
}

HostTensor identity_reference(const HostTensor& x) { return x; }

}  // namespace hxrt_conformance
