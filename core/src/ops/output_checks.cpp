#include <string>

#include "hxrt/error.hpp"
#include "ops/op_schema.hpp"

namespace hxrt::detail {

void check_outputs(const InferContext& call, TensorMeta* outputs) {
  for (int i = 0; i < call.num_outputs; ++i) {
    try {
      outputs[i].bytes = tensor_bytes(outputs[i].dtype, outputs[i].shape);
    } catch (const Error& error) {
      throw Error(StatusCode::kInvalidArgument,
                  call.op + ": output " + std::to_string(i) + " cannot be made: " + error.what());
    }
  }
}

}  // namespace hxrt::detail
