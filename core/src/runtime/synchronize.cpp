// Runtime::synchronize: the host waits for the work queued on one device, or on all of them.
#include "runtime/runtime_impl.hpp"
#include "trace/transfer_trace.hpp"

namespace hxrt {

void Runtime::synchronize(const std::string& device) {
  Impl& state = impl();
  state.ensure_initialized();
  if (!device.empty()) {
    detail::Device& named = state.named_device(device);
    const detail::SpanTimer waited;
    named.synchronize();
    detail::trace_wait(waited, named.name(), "Runtime::synchronize");
    return;
  }
  // Every device is waited for, even after one reports an error, so that no work is still
  // running when this returns; the first error is thrown then.
  std::exception_ptr first_error;
  for (const std::shared_ptr<detail::Device>& each : state.devices.all()) {
    try {
      const detail::SpanTimer waited;
      each->synchronize();
      detail::trace_wait(waited, each->name(), "Runtime::synchronize");
    } catch (const Error&) {
      if (!first_error) first_error = std::current_exception();
    }
  }
  if (first_error) std::rethrow_exception(first_error);
}

}  // namespace hxrt
