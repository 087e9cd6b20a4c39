// Byte counts as people read them, the same in the core's messages and the tools' reports.
#pragma once

#include <cstdint>
#include <string>

namespace hxcommon {

// "512 B", "1.50 KiB", "16.00 GiB": binary units, two decimals from KiB up.
std::string format_bytes(uint64_t bytes);

}  // namespace hxcommon
