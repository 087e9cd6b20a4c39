// placement_from_json and placement_to_json (core/src/graph/placement_json.cpp), the text a
// program keeps between compiles. The input is the text read back.
//
// Oracle: reading gives a placement or throws Error(kInvalidArgument) naming "placement JSON"
// and where the mistake is; what it gives is written and read back to the same placement;
// writing a placement whose node name is the raw input (any bytes) never throws and reads back.
// Anything else (another exception, a crash, a sanitizer report) is a finding.
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

#include "hxrt/executable.hpp"
#include "saved_json_fuzz.hpp"

namespace {

constexpr const char* kTarget = "placement_json_fuzz";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::map<std::string, std::string> placement;
  try {
    placement = hxrt::placement_from_json(text);
  } catch (const hxrt::Error& error) {
    saved_json_fuzz::check_refusal(kTarget, error, "placement JSON");
  }
  if (hxrt::placement_from_json(hxrt::placement_to_json(placement)) != placement) {
    saved_json_fuzz::finding(kTarget, "a placement read from JSON does not survive being "
                                      "written and read again");
  }
  // Node names may hold any bytes (GraphBuilder takes them): written, they must read back.
  const std::map<std::string, std::string> raw = {{text, "/CPU:0"}};
  if (hxrt::placement_from_json(hxrt::placement_to_json(raw)).size() != 1) {
    saved_json_fuzz::finding(kTarget, "a node name of raw bytes did not read back as one entry");
  }
  return 0;
}
