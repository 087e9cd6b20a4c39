#include "base/status.hpp"

namespace hxrt::detail {

hx_status* make_status(hx_status_code code, std::string message) {
  return new hx_status_s{code, std::move(message)};
}

namespace {
// Both shared statuses are made when the library loads, not at their first use: handing one out
// must need no memory, and the out-of-memory one is handed out when there is none left.
hx_status_s not_set{HX_NOT_FOUND, "attribute is not set; use the op's default"};
hx_status_s out_of_memory{HX_OUT_OF_MEMORY, "the host ran out of memory while making a status"};
}  // namespace

hx_status* attribute_not_set_status() { return &not_set; }

hx_status* out_of_memory_status() { return &out_of_memory; }

void free_status(hx_status* status) {
  if (status != attribute_not_set_status() && status != out_of_memory_status()) delete status;
}

std::string consume_status(hx_status* status) {
  if (status == nullptr) return {};
  std::string text = std::string(status_code_name(static_cast<StatusCode>(status->code))) +
                     ": " + status->message;
  free_status(status);
  return text;
}

void throw_if_error(hx_status* status, std::string_view context) {
  if (status == nullptr) return;
  StatusCode code = static_cast<StatusCode>(status->code);
  if (code == StatusCode::kOk) code = StatusCode::kInternal;  // a plugin bug; still an error
  std::string message = std::string(context) + ": " + status->message;
  free_status(status);
  throw Error(code, message);
}

}  // namespace hxrt::detail
