#include "builtin_op_calls.hpp"

#include <catch2/catch.hpp>

#include "hxrt/error.hpp"
#include "ops/builtin_registry.hpp"

namespace hxrt_test_ops {

using hxrt::DType;
using hxrt::detail::InferContext;
using hxrt::detail::OpRegistry;
using hxrt::detail::OpSchema;
using hxrt::detail::TensorMeta;

const OpRegistry& builtin_registry() { return hxrt::detail::builtin_registry(); }

const OpSchema& builtin_schema(const std::string& op) {
  const OpSchema* schema = builtin_registry().find(op);
  REQUIRE(schema != nullptr);
  return *schema;
}

TensorMeta meta(DType dtype, hxrt::Shape shape) { return TensorMeta{dtype, shape}; }
TensorMeta f32(hxrt::Shape shape) { return meta(DType::kF32, shape); }

std::vector<TensorMeta> infer_all(const std::string& op, const std::vector<TensorMeta>& inputs,
                                  const hxrt::Attrs& attrs) {
  const OpSchema& schema = builtin_schema(op);
  const InferContext call{op, inputs.data(), inputs.size(), attrs};
  std::vector<TensorMeta> outputs(
      static_cast<size_t>(hxrt::detail::num_outputs_of(schema, attrs, inputs.size())));
  for (TensorMeta& output : outputs) output.dtype = static_cast<DType>(0);
  hxrt::detail::infer_outputs(schema, call, outputs.data());
  return outputs;
}

TensorMeta infer(const std::string& op, const std::vector<TensorMeta>& inputs,
                 const hxrt::Attrs& attrs) {
  return infer_all(op, inputs, attrs).front();
}

std::string infer_error(const std::string& op, const std::vector<TensorMeta>& inputs,
                        const hxrt::Attrs& attrs) {
  try {
    const TensorMeta output = infer(op, inputs, attrs);
    FAIL("inference accepted the call and gave " << output.shape.to_string());
  } catch (const hxrt::Error& error) {
    CHECK(error.code() == hxrt::StatusCode::kInvalidArgument);
    return error.what();
  }
  return {};
}

}  // namespace hxrt_test_ops
