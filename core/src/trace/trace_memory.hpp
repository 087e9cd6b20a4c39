// The allocator's hooks: light to include (no JSON), called only while tracing().
#pragma once

#include <cstddef>
#include <string>

#include "trace/trace_switch.hpp"

namespace hxrt::detail {

void trace_allocation(const std::string& device, size_t bytes, const void* block);
void trace_free(const std::string& device, const void* block);

}  // namespace hxrt::detail
