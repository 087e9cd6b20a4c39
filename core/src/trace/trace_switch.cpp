#include "trace/trace_switch.hpp"

namespace hxrt::detail {

std::atomic<bool> g_tracing{false};

}  // namespace hxrt::detail
