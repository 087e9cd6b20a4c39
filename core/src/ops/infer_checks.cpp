#include "ops/infer_checks.hpp"

#include <string>

#include "hxrt/error.hpp"

namespace hxrt::detail {

namespace {

std::string all_dtype_names(bool with_bool) {
  std::string names;
  for (DType dtype : kAllDTypes) {
    if (dtype == DType::kBool && !with_bool) continue;
    if (!names.empty()) names += ", ";
    names += dtype_name(dtype);
  }
  return names;
}

}  // namespace

void reject_call(const InferContext& call, const std::string& reason) {
  throw Error(StatusCode::kInvalidArgument, call.op + ": " + reason);
}

void require_numeric_inputs(const InferContext& call) {
  for (size_t i = 0; i < call.num_inputs; ++i) {
    const DType dtype = call.inputs[i].dtype;
    if (dtype == DType::kBool || dtype_size(dtype) == 0) {
      reject_call(call, "input " + std::to_string(i) + " has dtype " + dtype_name(dtype) + "; " +
                            call.op + " accepts " + all_dtype_names(false) +
                            " (convert with Cast first)");
    }
  }
}

void require_same_dtype(const InferContext& call) {
  for (size_t i = 1; i < call.num_inputs; ++i) {
    if (call.inputs[i].dtype != call.inputs[0].dtype) {
      reject_call(call, "input " + std::to_string(i) + " has dtype " +
                            dtype_name(call.inputs[i].dtype) + " but input 0 has " +
                            dtype_name(call.inputs[0].dtype) + "; " + call.op +
                            " needs all inputs of one dtype (convert with Cast first)");
    }
  }
}

void require_known_dtype(const InferContext& call, const char* attr_name, DType dtype) {
  if (dtype_size(dtype) == 0) {
    reject_call(call, std::string("attribute '") + attr_name + "' holds dtype value " +
                          std::to_string(static_cast<int32_t>(dtype)) +
                          ", which is not a dtype; expected one of " + all_dtype_names(true));
  }
}

}  // namespace hxrt::detail
