#include "trace/trace_switch.hpp"

namespace hxrt::detail {

__attribute__((visibility("hidden"))) std::atomic<bool> g_tracing{false};

bool tracing_outside_core() { return tracing(); }

}  // namespace hxrt::detail
