// The human-readable report: load report, physical devices and how they map to logical
// devices, logical devices with their memory, and kernels, as aligned text.
#pragma once

#include <ostream>

#include "snapshot.hpp"

namespace hxrt_info {

void print_text_report(std::ostream& out, const Snapshot& snapshot);

}  // namespace hxrt_info
