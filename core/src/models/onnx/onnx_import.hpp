// An ONNX model (ONNX's ModelProto) made into an hxrt Graph through GraphBuilder: each node of
// ONNX's default domain becomes a call of the core's op that implements its version
// (OpSchema::onnx), initializers become graph constants, and nodes whose inputs are all known
// at load (shape arithmetic, Constant) are computed then.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "hxrt/onnx_model.hpp"
#include "hxrt/tensor.hpp"
#include "models/onnx/tensor_proto.hpp"
#include "ops/op_schema.hpp"

namespace onnx {
class ModelProto;
}

namespace hxrt::detail {

// What the importer asks of the runtime it builds for.
struct ImportServices {
  // A tensor on the host holding `value`.
  std::function<Tensor(const TensorValue& value)> host_tensor;
  // Runs `op` eagerly on the host: a node whose inputs are all known at load.
  std::function<std::vector<Tensor>(const std::string& op, const std::vector<Tensor>& inputs,
                                    const Attrs& attrs)>
      run_on_host;
};

// The graph of `model`, built with `builder` (which must be empty). `external_dir`: where
// external data lives ("" for none). Error(kInvalidArgument) names the node, op, version or
// value that hxrt cannot run as the model means it, and what it supports instead; nothing is
// run wrongly.
OnnxModel import_onnx(const onnx::ModelProto& model, GraphBuilder& builder,
                      const OpRegistry& ops, const ImportServices& services,
                      const OnnxLoadOptions& options, const std::string& external_dir);

}  // namespace hxrt::detail
