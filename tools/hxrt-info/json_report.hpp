// The machine-readable report: one JSON object with keys "plugins", "devices", "kernels".
#pragma once

#include <nlohmann/json.hpp>

#include "snapshot.hpp"

namespace hxrt_info {

// Keys keep the order of the text report. Memory sizes are in bytes here (the text report
// rounds them to MiB).
nlohmann::ordered_json json_report(const Snapshot& snapshot);

}  // namespace hxrt_info
