// What one device allocator reports about its memory: the figures of hxrt-info and of every
// out-of-memory message.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include <hxcommon/byte_format.hpp>

#include "hxrt/memory_stats.hpp"

namespace hxrt::detail {

using AllocatorStats = hxrt::MemoryStats;

// "1536 B", "2.00 MiB", "1.50 GiB": byte counts as people read them, as the tools print them.
using hxcommon::format_bytes;

// "in use 1.00 MiB, peak 2.00 MiB, reserved 4.00 MiB, limit 8.00 MiB, largest free block
// 3.00 MiB"; a limit of SIZE_MAX reads "limit none".
std::string describe(const AllocatorStats& stats);

}  // namespace hxrt::detail
