#include "trace/trace_memory.hpp"

#include "trace/trace_clock.hpp"
#include "trace/tracer.hpp"

namespace hxrt::detail {
namespace {

void record_memory(TraceEvent::Kind kind, const std::string& device, size_t bytes,
                   const void* block) {
  TraceEvent event;
  event.kind = kind;
  event.start_ns = trace_now_ns();
  event.device = NameTable::instance().id(device);
  event.address = block;
  event.bytes = bytes;
  Tracer::instance().record(std::move(event));
}

}  // namespace

void trace_allocation(const std::string& device, size_t bytes, const void* block) {
  record_memory(TraceEvent::Kind::kAllocation, device, bytes, block);
}

void trace_free(const std::string& device, const void* block) {
  record_memory(TraceEvent::Kind::kFree, device, 0, block);
}

}  // namespace hxrt::detail
