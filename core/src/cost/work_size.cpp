#include "cost/work_size.hpp"

#include <cmath>

namespace hxrt::detail {

int WorkSize::size_class() const {
  if (amount < 1) return 0;
  return static_cast<int>(std::floor(std::log2(amount))) + 1;
}

WorkSize work_of(const std::string& op, const TensorMeta* inputs, size_t num_inputs,
                 const TensorMeta* outputs, size_t num_outputs, const Attrs& attrs) {
  WorkSize work;
  if (op == "MatMul" && num_inputs == 2 && num_outputs == 1 && inputs[0].shape.rank() >= 2) {
    // The inner dimension: a's last extent, or its second last when a is transposed.
    const Shape& a = inputs[0].shape;
    const AttrValue* transpose = attrs.find("transpose_a");
    const bool transposed = transpose != nullptr && std::holds_alternative<bool>(*transpose) &&
                            std::get<bool>(*transpose);
    const double k = static_cast<double>(a[a.rank() - (transposed ? 2 : 1)]);
    work.flops = true;
    work.amount = 2.0 * static_cast<double>(outputs[0].shape.num_elements()) * k;
    return work;
  }
  for (size_t i = 0; i < num_inputs; ++i) {
    work.amount += static_cast<double>(inputs[i].shape.num_elements()) *
                   static_cast<double>(dtype_size(inputs[i].dtype));
  }
  for (size_t i = 0; i < num_outputs; ++i) work.amount += static_cast<double>(outputs[i].bytes);
  return work;
}

}  // namespace hxrt::detail
