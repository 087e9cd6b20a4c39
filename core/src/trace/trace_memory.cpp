#include "trace/trace_memory.hpp"

#include <cstdio>

#include "trace/trace_clock.hpp"
#include "trace/tracer.hpp"

namespace hxrt::detail {
namespace {

std::string address_text(const void* block) {
  char text[32];
  std::snprintf(text, sizeof text, "%p", block);
  return text;
}

}  // namespace

void trace_allocation(const std::string& device, size_t bytes, const void* block) {
  TraceEvent event;
  event.kind = TraceEvent::Kind::kAllocation;
  event.category = "memory";
  event.name = "allocate";
  event.start_ns = trace_now_ns();
  event.device = device;
  event.address = block;
  event.bytes = bytes;
  event.args = {{"bytes", bytes}, {"device", device}, {"block", address_text(block)}};
  Tracer::instance().record(std::move(event));
}

void trace_free(const std::string& device, const void* block) {
  TraceEvent event;
  event.kind = TraceEvent::Kind::kFree;
  event.category = "memory";
  event.name = "free";
  event.start_ns = trace_now_ns();
  event.device = device;
  event.address = block;
  event.args = {{"device", device}, {"block", address_text(block)}};
  Tracer::instance().record(std::move(event));
}

}  // namespace hxrt::detail
