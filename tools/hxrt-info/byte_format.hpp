// Byte counts as an operator reads them. The JSON report keeps exact numbers; the text report
// rounds, so that a 2 GiB device and a 256-byte tensor both stay legible.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include <hxcommon/byte_format.hpp>

namespace hxrt_info {

// "256 B", "2.00 MiB", "1.50 GiB": the same spelling as hxrt's out-of-memory messages (one
// function for both).
using hxcommon::format_bytes;

// A memory limit: SIZE_MAX, which MemoryStats uses for "no limit", reads "none".
std::string format_limit(size_t bytes);

}  // namespace hxrt_info
