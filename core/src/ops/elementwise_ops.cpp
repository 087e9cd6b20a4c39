#include <string>

#include "ops/builtin_op_families.hpp"
#include "ops/infer_checks.hpp"

namespace hxrt::detail {

namespace {

// Equal shapes, or a one-element operand broadcast against the other; with two one-element
// operands the higher rank wins so that [1, 1] + [] keeps its rank.
void infer_binary(const InferContext& call, TensorMeta* outputs) {
  require_numeric_inputs(call);
  require_same_dtype(call);
  const Shape& x = call.inputs[0].shape;
  const Shape& y = call.inputs[1].shape;
  const bool x_is_one = x.num_elements() == 1;
  const bool y_is_one = y.num_elements() == 1;
  const Shape* result = nullptr;
  if (x == y) {
    result = &x;
  } else if (x_is_one && y_is_one) {
    result = x.rank() >= y.rank() ? &x : &y;
  } else if (x_is_one) {
    result = &y;
  } else if (y_is_one) {
    result = &x;
  } else {
    reject_call(call, "shapes " + x.to_string() + " and " + y.to_string() +
                          " are not compatible: expected equal shapes or a one-element operand");
  }
  outputs[0].dtype = call.inputs[0].dtype;
  outputs[0].shape = *result;
}

void infer_add_n(const InferContext& call, TensorMeta* outputs) {
  require_numeric_inputs(call);
  require_same_dtype(call);
  const Shape& first = call.inputs[0].shape;
  for (size_t i = 1; i < call.num_inputs; ++i) {
    if (call.inputs[i].shape != first) {
      reject_call(call, "input " + std::to_string(i) + " has shape " +
                            call.inputs[i].shape.to_string() + " but input 0 has shape " +
                            first.to_string() + "; AddN needs all inputs of one shape");
    }
  }
  outputs[0] = call.inputs[0];
}

void infer_relu(const InferContext& call, TensorMeta* outputs) {
  require_numeric_inputs(call);
  outputs[0] = call.inputs[0];
}

}  // namespace

void add_elementwise_ops(OpRegistry& registry) {
  for (const char* name : {"Add", "Sub", "Mul", "Div"}) {
    registry.add(OpSchema{name, 2, 2, 1, infer_binary, ""});
  }
  registry.add(OpSchema{"AddN", 1, -1, 1, infer_add_n, ""});
  registry.add(OpSchema{"Relu", 1, 1, 1, infer_relu, ""});
}

}  // namespace hxrt::detail
