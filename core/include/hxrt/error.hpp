// hxrt's one error type. Every public function reports failure by throwing hxrt::Error, which
// carries a status code (the same set as the plugin ABI's hx_status_code) and a message that
// says what was asked, what was found and, where one exists, what to do.
#pragma once

#include <stdexcept>
#include <string>

#include "hxrt/export.hpp"

namespace hxrt {

enum class StatusCode {
  kOk = 0,
  kInvalidArgument = 1,
  kNotFound = 2,
  kAlreadyExists = 3,
  kOutOfMemory = 4,
  kUnimplemented = 5,
  kFailedPrecondition = 6,
  kUnavailable = 7,
  kOutOfRange = 8,
  kInternal = 9,
};

// "INVALID_ARGUMENT", "NOT_FOUND", ...
HXRT_API const char* status_code_name(StatusCode code);

class HXRT_API Error : public std::runtime_error {
 public:
  Error(StatusCode code, const std::string& message)
      : std::runtime_error(message), code_(code) {}
  StatusCode code() const { return code_; }

 private:
  StatusCode code_;
};

}  // namespace hxrt
