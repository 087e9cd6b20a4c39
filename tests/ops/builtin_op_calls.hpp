// Calls of the core's ops as shape inference sees them, for the tests of tests/ops.
#pragma once

#include <string>
#include <vector>

#include "hxrt/attrs.hpp"
#include "ops/op_schema.hpp"

namespace hxrt_test_ops {

// The core's ops, registered once.
const hxrt::detail::OpRegistry& builtin_registry();
// The schema of a core op; fails the test when there is none.
const hxrt::detail::OpSchema& builtin_schema(const std::string& op);

hxrt::detail::TensorMeta meta(hxrt::DType dtype, hxrt::Shape shape);
hxrt::detail::TensorMeta f32(hxrt::Shape shape);

// Every output that infer_outputs gives for a call of a core op.
std::vector<hxrt::detail::TensorMeta> infer_all(
    const std::string& op, const std::vector<hxrt::detail::TensorMeta>& inputs,
    const hxrt::Attrs& attrs = {});
// Its first output.
hxrt::detail::TensorMeta infer(const std::string& op,
                               const std::vector<hxrt::detail::TensorMeta>& inputs,
                               const hxrt::Attrs& attrs = {});
// The message of the Error(kInvalidArgument) that inference throws; fails the test when it
// accepts the call.
std::string infer_error(const std::string& op,
                        const std::vector<hxrt::detail::TensorMeta>& inputs,
                        const hxrt::Attrs& attrs = {});

}  // namespace hxrt_test_ops
