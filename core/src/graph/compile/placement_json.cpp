// A placement kept as JSON text between compiles: {"node": "device", ...}.
#include <nlohmann/json.hpp>

#include "config/json_checks.hpp"
#include "config/json_pointer.hpp"
#include "config/json_text.hpp"
#include "hxrt/error.hpp"
#include "hxrt/executable.hpp"

namespace hxrt {
namespace {

constexpr const char* kSource = "placement JSON";

}  // namespace

std::string placement_to_json(const std::map<std::string, std::string>& placement) {
  return detail::json_text(nlohmann::json(placement), 2) + "\n";
}

std::map<std::string, std::string> placement_from_json(const std::string& text) {
  const nlohmann::json parsed = detail::parse_json(text, kSource);
  if (!parsed.is_object()) {
    detail::fail(kSource, "",
                 "expected an object of node names to device names, as placement_to_json "
                 "writes it, got " + detail::type_of(parsed));
  }
  std::map<std::string, std::string> placement;
  for (const auto& entry : parsed.items()) {
    if (!entry.value().is_string() || entry.value().get_ref<const std::string&>().empty()) {
      detail::fail(kSource, detail::pointer_child("", entry.key()),
                   "expected a device name such as "
                   "\"/job:localhost/replica:0/task:0/device:GPU:0\", got " +
                       detail::type_of(entry.value()));
    }
    placement.emplace(entry.key(), entry.value().get<std::string>());
  }
  return placement;
}

}  // namespace hxrt
