// The core's layers (issue 33): core/src is ordered bottom to top, and a part of it includes
// only parts of its own layer or of layers below it, never above; nothing below the runtime
// includes the public facade hxrt/runtime.hpp. This test reads every #include under core/src
// against the table below, so that the rule cannot decay.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

// Bottom to top. A part is a folder of core/src, or a file's stem at its root (none today: a
// file at the root is in no layer, and fails the first test).
const std::vector<std::vector<std::string>> kLayers = {
    {"base"},  // value types, status, logging, device names, JSON writing
    {"trace", "config"},
    {"ops"},
    {"plugins"},  // the loader, the probe, core services, the kernel registry
    {"memory"},
    {"devices", "execution"},  // a device with its stream and event machinery
    {"tensors"},  // tensors, and the copies that make them on other devices
    {"placement", "cost"},
    {"eager"},  // one op: its plan, the views of its operands, the kernel's arguments
    {"graph"},
    {"models"},   // ONNX import: a model's graph, built with the graph's builder
    {"cluster"},  // tasks of MPI ranks, their devices
    {"runtime"},  // the facade and start-up wiring
};

const fs::path kSource = fs::path(HXRT_TEST_SOURCE_DIR) / "core" / "src";

// The part of a path relative to core/src ("devices/device.hpp" -> "devices",
// "status.hpp" -> "status").
std::string part_of(const fs::path& relative) {
  const auto first = relative.begin();
  if (std::next(first) != relative.end()) return first->string();
  return relative.stem().string();
}

// The layer of `part`, or -1 when the table has none.
int layer_of(const std::string& part) {
  for (size_t i = 0; i < kLayers.size(); ++i) {
    const std::vector<std::string>& layer = kLayers[i];
    if (std::find(layer.begin(), layer.end(), part) != layer.end()) return static_cast<int>(i);
  }
  return -1;
}

struct Include {
  std::string file;    // relative to core/src
  std::string target;  // as written
};

std::vector<Include> core_includes() {
  std::vector<Include> found;
  const std::regex include(R"re(^\s*#\s*include\s*"([^"]+)")re");
  for (const fs::directory_entry& entry : fs::recursive_directory_iterator(kSource)) {
    const fs::path path = entry.path();
    if (!entry.is_regular_file() || (path.extension() != ".cpp" && path.extension() != ".hpp")) {
      continue;
    }
    std::ifstream in(path);
    std::string line;
    std::smatch match;
    while (std::getline(in, line)) {
      if (std::regex_search(line, match, include)) {
        found.push_back({fs::relative(path, kSource).generic_string(), match[1]});
      }
    }
  }
  return found;
}

}  // namespace

TEST_CASE("Every part of core/src is in a layer", "[layers]") {
  REQUIRE(fs::is_directory(kSource));
  std::set<std::string> unplaced;
  for (const fs::directory_entry& entry : fs::directory_iterator(kSource)) {
    const std::string part = part_of(fs::relative(entry.path(), kSource));
    if (layer_of(part) < 0) unplaced.insert(part);
  }
  INFO("add each to kLayers in tests/core/layering_test.cpp, at the layer it belongs to");
  CHECK(unplaced.empty());
  for (const std::string& part : unplaced) WARN("core/src/" << part << " is in no layer");
}

TEST_CASE("No include in core/src points to a layer above its own, or to the facade",
          "[layers]") {
  std::set<std::string> violations;
  for (const Include& include : core_includes()) {
    const int from = layer_of(part_of(include.file));
    const std::string arrow = include.file + " -> " + include.target;
    if (include.target == "hxrt/runtime.hpp") {
      if (from != layer_of("runtime")) violations.insert(arrow);
      continue;
    }
    if (!fs::exists(kSource / include.target)) continue;  // a public or library header
    const int to = layer_of(part_of(include.target));
    if (from >= 0 && to > from) violations.insert(arrow);
  }
  for (const std::string& arrow : violations) {
    WARN("against the layer order (include a lower layer, or move the code): " << arrow);
  }
  CHECK(violations.empty());
}

TEST_CASE("No file in core/src includes a plugin's helpers", "[layers]") {
  // What the core shares with the plugins lives in common/ (hxcommon/) or in the ABI's headers.
  const std::regex plugin_helper(R"re(^\s*#\s*include\s*[<"]hxplugin/)re");
  std::vector<std::string> found;
  for (const fs::directory_entry& entry : fs::recursive_directory_iterator(kSource)) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path());
    std::string line;
    while (std::getline(in, line)) {
      if (std::regex_search(line, plugin_helper)) {
        found.push_back(fs::relative(entry.path(), kSource).generic_string() + ": " + line);
      }
    }
  }
  for (const std::string& include : found) WARN("a plugin's helper in the core: " << include);
  CHECK(found.empty());
}
