// The suite's results as an aligned table with summary lines, or as one JSON object.
#pragma once

#include <nlohmann/json.hpp>

#include <ostream>
#include <vector>

#include "suite.hpp"

namespace hxrt_conformance {

// One table per plugin (details printed under their check), a summary line per plugin and,
// for several plugins, a last summary line over all of them.
void print_text_report(std::ostream& out, const std::vector<PluginResult>& results);

nlohmann::ordered_json json_report(const std::vector<PluginResult>& results);

// Whether any check of any plugin failed.
bool any_failed(const std::vector<PluginResult>& results);

}  // namespace hxrt_conformance
