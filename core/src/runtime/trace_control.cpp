// Runtime's side of the timeline trace: the API's start and stop, the trace the config asks
// for at create, and writing a runtime's trace when it goes.
#include "runtime/runtime_impl.hpp"
#include "trace/tracer.hpp"

namespace hxrt {

Runtime::Impl::~Impl() {
  // Spans of this runtime's queued work end first: their completion tests query events of
  // devices that go with it.
  detail::Tracer::instance().settle_device_work();
  const std::string failure = detail::Tracer::instance().stop_owned_by(this);
  if (!failure.empty()) logger->log(LogLevel::kError, failure);
}

void Runtime::Impl::start_configured_trace() {
  if (config.trace_path.empty()) return;
  const std::string& origin = config.origins.at("/trace/path");
  detail::Tracer& tracer = detail::Tracer::instance();
  const std::string running = tracer.path();
  if (!running.empty()) {
    // Another runtime of this process started it; it records this runtime's work too.
    logger->log(LogLevel::kWarning, "trace.path (" + origin + ") asks for a trace in '" +
                                        config.trace_path + "', but one is already being "
                                        "recorded to '" + running + "': this runtime's work "
                                        "goes there");
    return;
  }
  try {
    tracer.start(config.trace_path, static_cast<uint64_t>(config.trace_max_events), this);
  } catch (const Error& error) {
    throw Error(error.code(), origin + ": trace.path: " + error.what());
  }
}

void Runtime::start_trace(const std::string& path) {
  detail::Tracer::instance().start(path, static_cast<uint64_t>(impl().config.trace_max_events),
                                   &impl());
}

std::string Runtime::stop_trace() {
  impl();  // a moved-from Runtime throws, as every method does
  return detail::Tracer::instance().stop();
}

}  // namespace hxrt
