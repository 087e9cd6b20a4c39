// The ABI's status objects (hx_status) and their conversion to hxrt::Error at the boundary.
#pragma once

#include <string>
#include <string_view>

#include "hxrt/error.hpp"
#include "hxrt/plugin_api.h"

struct hx_status_s {
  hx_status_code code;
  std::string message;
};

namespace hxrt::detail {

hx_status* make_status(hx_status_code code, std::string message);

// Frees `status` and returns "CODE_NAME: message"; "" for NULL.
std::string consume_status(hx_status* status);

// Frees `status`; throws Error(code, "<context>: <message>") when it is not NULL. The plugin's
// code is kept, so a plugin's OUT_OF_MEMORY reaches the caller as kOutOfMemory.
void throw_if_error(hx_status* status, std::string_view context);

}  // namespace hxrt::detail
