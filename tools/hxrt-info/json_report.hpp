// The machine-readable report: one JSON object with keys "plugins", "physical_devices",
// "devices" (each with its "memory" figures) and "kernels".
#pragma once

#include <nlohmann/json.hpp>

#include "snapshot.hpp"

namespace hxrt_info {

// Keys keep the order of the text report. Memory sizes are exact numbers of bytes here (the
// text report rounds them).
nlohmann::ordered_json json_report(const Snapshot& snapshot);

}  // namespace hxrt_info
