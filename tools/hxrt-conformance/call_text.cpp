#include "call_text.hpp"

#include "plugin_session.hpp"

namespace hxrt_conformance {

std::string byte_count(size_t size) {
  return std::to_string(size) + (size == 1 ? " byte" : " bytes");
}

std::string call_failed(const std::string& call, const Outcome& outcome) {
  return call + " failed: " + describe(outcome);
}

std::string returned_null(const std::string& call, const std::string& result,
                          const std::string& wanted) {
  return call + " returned no error but a NULL " + result + "; return " + wanted +
         ", or a status saying why not";
}

}  // namespace hxrt_conformance
