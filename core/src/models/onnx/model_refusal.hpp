// How the ONNX import refuses a model it cannot run as written: an invalid-argument error whose
// message names the part of the model (a node, an initializer, an attribute) and what is wrong.
#pragma once

#include <string>

#include "hxrt/error.hpp"

namespace hxrt::detail {

[[noreturn]] inline void refuse_model(const std::string& why) {
  throw Error(StatusCode::kInvalidArgument, why);
}

[[noreturn]] inline void refuse_model(const std::string& what, const std::string& why) {
  refuse_model(what + ": " + why);
}

}  // namespace hxrt::detail
