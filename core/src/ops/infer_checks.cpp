#include "ops/infer_checks.hpp"

#include <algorithm>
#include <iterator>
#include <string>

#include "hxrt/error.hpp"

namespace hxrt::detail {

namespace {

std::string dtype_names(const std::vector<DType>& dtypes) {
  std::string names;
  for (DType dtype : dtypes) {
    if (!names.empty()) names += ", ";
    names += dtype_name(dtype);
  }
  return names;
}

}  // namespace

bool is_numeric(DType dtype) {
  return is_integer(dtype) || (is_floating(dtype) && !is_float8(dtype));
}

const std::vector<DType>& numeric_dtypes() {
  static const std::vector<DType> dtypes = [] {
    std::vector<DType> numeric;
    for (DType dtype : kAllDTypes) {
      if (is_numeric(dtype)) numeric.push_back(dtype);
    }
    return numeric;
  }();
  return dtypes;
}

const std::vector<DType>& floating_dtypes() {
  static const std::vector<DType> dtypes = {DType::kF32, DType::kF64, DType::kF16, DType::kBF16};
  return dtypes;
}

const std::vector<DType>& all_dtypes() {
  static const std::vector<DType> dtypes(std::begin(kAllDTypes), std::end(kAllDTypes));
  return dtypes;
}

void reject_call(const InferContext& call, const std::string& reason) {
  throw Error(StatusCode::kInvalidArgument, call.op + ": " + reason);
}

bool int_flag(const InferContext& call, const char* name, int64_t default_value) {
  const int64_t value = attr_int(call, name, default_value);
  if (value != 0 && value != 1) {
    reject_call(call, std::string("attribute '") + name + "' is " + std::to_string(value) +
                          "; it is 0 or 1");
  }
  return value == 1;
}

void require_inputs_in(const InferContext& call, const std::vector<DType>& accepted) {
  for (size_t i = 0; i < call.num_inputs; ++i) {
    const DType dtype = call.inputs[i].dtype;
    if (std::find(accepted.begin(), accepted.end(), dtype) == accepted.end()) {
      reject_call(call, "input " + std::to_string(i) + " has dtype " + dtype_name(dtype) + "; " +
                            call.op + " accepts " + dtype_names(accepted) +
                            " (convert with Cast first)");
    }
  }
}

void require_numeric_inputs(const InferContext& call) { require_inputs_in(call, numeric_dtypes()); }

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
                          ", which is not a dtype; expected one of " + dtype_names(all_dtypes()));
  }
}

void infer_numeric_unary(const InferContext& call, TensorMeta* outputs) {
  require_numeric_inputs(call);
  outputs[0] = call.inputs[0];
}

void infer_floating_unary(const InferContext& call, TensorMeta* outputs) {
  require_inputs_in(call, floating_dtypes());
  outputs[0] = call.inputs[0];
}

}  // namespace hxrt::detail
