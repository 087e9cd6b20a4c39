// config/hxrt.schema.json itself: its device name patterns are the loader's own, and every
// property is described. Whether the schema and the loader accept the same files is checked
// through tests/config/cases (config_cases_test.cpp and check_schema.py).
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "config/device_keys.hpp"

using nlohmann::json;

namespace {

json schema() {
  std::ifstream in(std::string(HXRT_TEST_SOURCE_DIR) + "/config/hxrt.schema.json");
  std::stringstream text;
  text << in.rdbuf();
  return json::parse(text.str());
}

// Every schema under a "properties" or "patternProperties", with the pointer to it.
void collect_properties(const json& node, const std::string& path,
                        std::vector<std::pair<std::string, json>>& out) {
  if (!node.is_object()) return;
  for (const char* keyword : {"properties", "patternProperties"}) {
    if (!node.contains(keyword)) continue;
    for (const auto& item : node[keyword].items()) {
      out.emplace_back(path + "/" + keyword + "/" + item.key(), item.value());
    }
  }
  for (const auto& item : node.items()) {
    collect_properties(item.value(), path + "/" + item.key(), out);
  }
}

}  // namespace

TEST_CASE("the schema's device name patterns are the loader's") {
  const json root = schema();
  const json& keys = root["properties"]["devices"]["patternProperties"];
  CHECK(keys.contains(hxrt::detail::kDeviceTypePattern));
  CHECK(keys.contains(hxrt::detail::kPhysicalDevicePattern));
  CHECK(keys.size() == 2);
  CHECK(root["$defs"]["physical_device_name"]["pattern"] == hxrt::detail::kPhysicalDevicePattern);
}

TEST_CASE("the schema's longest device name is the loader's") {
  const json root = schema();
  CHECK(root["properties"]["devices"]["propertyNames"]["maxLength"] ==
        hxrt::detail::kMaxDeviceNameBytes);
  CHECK(root["$defs"]["physical_device_name"]["maxLength"] == hxrt::detail::kMaxDeviceNameBytes);
}

TEST_CASE("every property of the schema has a description, directly or through its $ref") {
  const json root = schema();
  std::vector<std::pair<std::string, json>> properties;
  collect_properties(root, "", properties);
  CHECK(properties.size() > 20);
  for (const auto& [path, property] : properties) {
    INFO(path);
    bool described = property.contains("description");
    if (!described && property.contains("$ref")) {
      const std::string def =
          property["$ref"].get<std::string>().substr(std::string("#/$defs/").size());
      described = root["$defs"][def].contains("description");
    }
    CHECK(described);
  }
}
