// Compile's hook: a span per graph pass (graph/optimize), with the nodes it changed, called
// only while tracing().
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "trace/trace_switch.hpp"

namespace hxrt::detail {

// The pass `pass` ran from `start_ns` (trace_now_ns()) until now and changed `nodes`.
void trace_graph_pass(const char* pass, int64_t start_ns, const std::vector<std::string>& nodes);

}  // namespace hxrt::detail
