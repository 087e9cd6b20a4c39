#include <string>

#include "ops/broadcast.hpp"
#include "ops/builtin_op_families.hpp"
#include "ops/infer_checks.hpp"

namespace hxrt::detail {

namespace {

void infer_binary(const InferContext& call, TensorMeta* outputs) {
  require_numeric_inputs(call);
  require_same_dtype(call);
  outputs[0].dtype = call.inputs[0].dtype;
  outputs[0].shape = broadcast_shapes(call, call.inputs[0].shape, call.inputs[1].shape);
}

// Pow's exponent has a dtype of its own (ONNX's T1); z has the base's.
void infer_pow(const InferContext& call, TensorMeta* outputs) {
  require_numeric_inputs(call);
  outputs[0].dtype = call.inputs[0].dtype;
  outputs[0].shape = broadcast_shapes(call, call.inputs[0].shape, call.inputs[1].shape);
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

struct BinaryOp {
  const char* name;
  const char* summary;
  const char* numbers;  // what the op does where a result does not fit or is undefined
  ReferenceCasesFn reference_cases;
  std::vector<int> onnx_versions = {13, 14};
  InferFn infer = infer_binary;
  const char* y_type = "T";  // y's type parameter: "T" is x's dtype
  const char* y = "the second operand, of x's dtype";
};

constexpr const char* kWrapping = " Integer results wrap modulo 2^bits, as in NumPy.";

OpSchema binary_schema(const BinaryOp& op) {
  OpSchema schema{op.name, 2, 2, 1, op.infer, ""};
  schema.broadcasts = true;
  schema.summary = op.summary;
  schema.inputs = {
      {"x", "T", numeric_dtypes(), "the first operand", false},
      {"y", op.y_type, numeric_dtypes(), op.y, false},
  };
  schema.outputs = {{"z", "T", numeric_dtypes(), "the result, element by element", false}};
  schema.shape_rule = std::string(
                          "z has the shape x and y broadcast to, as NumPy broadcasts: aligned at "
                          "their last axes (a missing leading axis counts as 1), each pair of "
                          "extents is equal or one of them is 1, and z takes the larger; [2, 3] "
                          "and [3] give [2, 3], [2, 1] and [1, 3] give [2, 3], [2, 3] and [4] "
                          "are refused. Kernels receive x and y already broadcast to z's shape, "
                          "with stride 0 along the axes where they repeat.") +
                      op.numbers;
  schema.reference_cases = op.reference_cases;
  schema.onnx.versions = op.onnx_versions;
  return schema;
}

}  // namespace

void add_elementwise_ops(OpRegistry& registry) {
  const BinaryOp ops[] = {
      {"Add", "Adds x and y element by element: z = x + y.", kWrapping, add_cases},
      {"Sub", "Subtracts y from x element by element: z = x - y.", kWrapping, sub_cases},
      {"Mul", "Multiplies x and y element by element: z = x * y.", kWrapping, mul_cases},
      {"Div", "Divides x by y element by element: z = x / y.",
       " Floating division follows IEEE 754 (x / 0 is an infinity or NaN); integer division "
       "truncates toward zero, and a zero divisor or the minimum value divided by -1 fails the "
       "call.",
       div_cases},
      {"Pow",
       "Raises x to the power y element by element: z = x^y.",
       " Floating powers are C's pow: a negative base with a fractional exponent gives NaN, 0 to "
       "a negative power an infinity. Integer powers are the real power truncated toward zero "
       "(2^-1 is 0, (-1)^-3 is -1) and wrap modulo 2^bits; 0 to a negative power fails the "
       "call. An exponent of another dtype than x's: an integer exponent of an integer x as "
       "above (a positive one at most x's largest value); any other power in double, "
       "converted to x's dtype as Cast converts.",
       pow_cases,
       {13, 15},
       infer_pow,
       "T1",
       "the exponent, of any numeric dtype"},
  };
  for (const BinaryOp& op : ops) {
    registry.add(binary_schema(op));
  }

  OpSchema add_n{"AddN", 1, -1, 1, infer_add_n, ""};
  add_n.summary = "Sums any number of tensors of one dtype and shape element by element.";
  add_n.inputs = {{"inputs", "T", numeric_dtypes(),
                   "one or more tensors, all of one dtype and one shape (no broadcasting)",
                   true}};
  add_n.outputs = {{"sum", "T", numeric_dtypes(), "their element-wise sum", false}};
  add_n.shape_rule = "sum has the shape of the inputs, which must all have one shape. Integer "
                     "sums wrap modulo 2^bits.";
  add_n.reference_cases = add_n_cases;
  add_n.onnx.op = "Sum";
  add_n.onnx.versions = {13};
  registry.add(std::move(add_n));

  OpSchema relu{"Relu", 1, 1, 1, infer_numeric_unary, ""};
  relu.summary = "Rectified linear unit: max(x, 0) element by element.";
  relu.inputs = {{"x", "T", numeric_dtypes(), "any tensor", false}};
  relu.outputs = {{"y", "T", numeric_dtypes(), "max(x, 0); NaN stays NaN", false}};
  relu.shape_rule = "y has x's shape.";
  relu.reference_cases = relu_cases;
  relu.onnx.versions = {14};
  registry.add(std::move(relu));
}

}  // namespace hxrt::detail
