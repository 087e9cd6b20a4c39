#include <string>

#include "hxrt/error.hpp"
#include "ops/builtin_op_families.hpp"
#include "ops/infer_checks.hpp"

namespace hxrt::detail {

namespace {

void infer_cast(const InferContext& call, TensorMeta* outputs) {
  required_attr(call, "dtype", "the dtype to convert to");
  const DType target = attr_dtype(call, "dtype", DType::kF32);
  require_known_dtype(call, "dtype", target);
  outputs[0].dtype = target;
  outputs[0].shape = call.inputs[0].shape;
}

void infer_identity(const InferContext& call, TensorMeta* outputs) { outputs[0] = call.inputs[0]; }

void infer_fill(const InferContext& call, TensorMeta* outputs) {
  required_attr(call, "shape", "a list of ints");
  const std::vector<int64_t> dims = attr_ints(call, "shape", {});
  required_attr(call, "value", "a float");
  attr_float(call, "value", 0.0);  // checks the type; the kernel reads the value
  const DType dtype = attr_dtype(call, "dtype", DType::kF32);
  require_known_dtype(call, "dtype", dtype);
  try {
    outputs[0].shape = Shape(dims);
  } catch (const Error& error) {
    reject_call(call, std::string("attribute 'shape': ") + error.what());
  }
  outputs[0].dtype = dtype;
}

}  // namespace

void add_array_ops(OpRegistry& registry) {
  registry.add(OpSchema{"Cast", 1, 1, 1, infer_cast, ""});
  registry.add(OpSchema{"Identity", 1, 1, 1, infer_identity, ""});
  registry.add(OpSchema{"Fill", 0, 0, 1, infer_fill, ""});
}

}  // namespace hxrt::detail
