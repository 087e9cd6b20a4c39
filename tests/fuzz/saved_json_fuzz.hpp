// What the two fuzz targets of saved JSON (placement_json_fuzz, cost_model_fuzz) share: the
// oracle for a refusal, which must be an hxrt::Error(kInvalidArgument) that names its source
// and where the mistake is, and the way a finding stops the run.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "hxrt/error.hpp"

namespace saved_json_fuzz {

[[noreturn]] inline void finding(const char* target, const std::string& what) {
  std::fprintf(stderr, "%s: %s\n", target, what.c_str());
  std::abort();
}

// "<source>: /pointer: ..." or, for text that is not JSON, "<source>: malformed JSON at line L,
// column C: ..." or the nesting limit's message.
inline bool located(const std::string& message, const std::string& source) {
  if (message.rfind(source + ": ", 0) != 0) return false;
  const std::string_view rest = std::string_view(message).substr(source.size() + 2);
  return rest.rfind('/', 0) == 0 || rest.rfind("malformed JSON at ", 0) == 0 ||
         rest.rfind("nesting deeper than ", 0) == 0;
}

inline void check_refusal(const char* target, const hxrt::Error& error,
                          const std::string& source) {
  if (error.code() != hxrt::StatusCode::kInvalidArgument || !located(error.what(), source)) {
    finding(target, std::string("a refusal without code INVALID_ARGUMENT, its source and where "
                                "the mistake is: ") +
                        hxrt::status_code_name(error.code()) + ": " + error.what());
  }
}

}  // namespace saved_json_fuzz
