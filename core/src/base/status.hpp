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

// The NOT_FOUND status every attribute getter returns for an absent attribute: kernels ask
// for optional attributes on every call, so "absent" must cost no allocation. free_status
// leaves it alone.
hx_status* attribute_not_set_status();

// The OUT_OF_MEMORY status status_create returns when the host has no memory left to make
// another: preallocated, shared, and left alone by free_status.
hx_status* out_of_memory_status();

// Frees any status, the shared ones above included. Accepts NULL. Use it, never delete.
void free_status(hx_status* status);

// Frees `status` and returns "CODE_NAME: message"; "" for NULL.
std::string consume_status(hx_status* status);

// Frees `status`; throws Error(code, "<context>: <message>") when it is not NULL. The plugin's
// code is kept, so a plugin's OUT_OF_MEMORY reaches the caller as kOutOfMemory.
void throw_if_error(hx_status* status, std::string_view context);

}  // namespace hxrt::detail
