#include "trace/graph_pass_trace.hpp"

#include "trace/trace_clock.hpp"
#include "trace/tracer.hpp"

namespace hxrt::detail {

void trace_graph_pass(const char* pass, int64_t start_ns, const std::vector<std::string>& nodes) {
  TraceEvent event;
  event.kind = TraceEvent::Kind::kGraphPass;
  event.name = NameTable::instance().id(pass);
  event.start_ns = start_ns;
  event.duration_ns = trace_now_ns() - start_ns;
  event.bytes = nodes.size();
  for (const std::string& node : nodes) event.text += (event.text.empty() ? "" : ", ") + node;
  Tracer::instance().record(std::move(event));
}

}  // namespace hxrt::detail
