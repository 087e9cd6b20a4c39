#include "hxrt/error.hpp"

#include "hxrt/plugin_vocabulary.h"

namespace hxrt {

// StatusCode's values are the ABI's hx_status_code values, so the ABI's vocabulary names them
// (a code that crossed the ABI from a plugin may be outside the enum: "UNKNOWN").
const char* status_code_name(StatusCode code) {
  return hx_status_code_name(static_cast<int32_t>(code));
}

}  // namespace hxrt
