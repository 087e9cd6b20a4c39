// A placement kept as JSON text between compiles: {"node": "device", ...}.
#include <nlohmann/json.hpp>

#include "config/json_pointer.hpp"
#include "hxrt/error.hpp"
#include "hxrt/executable.hpp"

namespace hxrt {

std::string placement_to_json(const std::map<std::string, std::string>& placement) {
  return nlohmann::json(placement).dump(2) + "\n";
}

std::map<std::string, std::string> placement_from_json(const std::string& text) {
  nlohmann::json parsed;
  try {
    parsed = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& error) {
    throw Error(StatusCode::kInvalidArgument,
                std::string("placement JSON: ") + error.what() +
                    "; expected an object of node names to device names, as "
                    "placement_to_json writes it");
  }
  if (!parsed.is_object()) {
    throw Error(StatusCode::kInvalidArgument,
                std::string("placement JSON: the document is a ") + parsed.type_name() +
                    "; expected an object of node names to device names");
  }
  std::map<std::string, std::string> placement;
  for (const auto& entry : parsed.items()) {
    if (!entry.value().is_string() || entry.value().get_ref<const std::string&>().empty()) {
      throw Error(StatusCode::kInvalidArgument,
                  "placement JSON: " + detail::pointer_child("", entry.key()) + " is " +
                      (entry.value().is_string() ? std::string("an empty string")
                                                 : std::string("a ") + entry.value().type_name()) +
                      "; expected a device name such as "
                      "\"/job:localhost/replica:0/task:0/device:GPU:0\"");
    }
    placement.emplace(entry.key(), entry.value().get<std::string>());
  }
  return placement;
}

}  // namespace hxrt
