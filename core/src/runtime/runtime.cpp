// Runtime start-up and the API around execution (execute.cpp runs the ops).
#include "config/config_sections.hpp"
#include "runtime/runtime_impl.hpp"

#include <algorithm>
#include <cstring>

#include "base/device_name.hpp"
#include "base/status.hpp"
#include "cluster/transport_loader.hpp"
#include "tensors/transfers.hpp"
#include "tensors/tensor_impl.hpp"
#include "trace/transfer_trace.hpp"

namespace hxrt {

thread_local bool detail::QuietPlacementLog::quiet_ = false;

Runtime::Runtime(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Runtime::Runtime(Runtime&&) noexcept = default;
Runtime& Runtime::operator=(Runtime&&) noexcept = default;
Runtime::~Runtime() = default;

void Runtime::throw_moved_from() {
  throw Error(StatusCode::kFailedPrecondition,
              "this Runtime is empty (moved from): its state went to the Runtime it was moved "
              "to; call that one, or assign a Runtime from Runtime::create() to this one");
}

namespace {

void log_start_up(Runtime::Impl& impl) {
  detail::Logger& logger = *impl.logger;
  if (impl.loaded.plugins.empty()) {
    logger.log(LogLevel::kWarning,
               "no plugin was loaded, so no op can run; set HXRT_PLUGIN_PATH or "
               "plugins.search_paths in the config to the folder holding libhx_cpu.so");
  }
  for (const auto& name_and_options : impl.config.plugin_options) {
    const std::string& name = name_and_options.first;  // C++17 lambdas cannot capture bindings
    bool used = std::any_of(impl.loaded.report.begin(), impl.loaded.report.end(),
                            [&](const PluginReport& r) { return r.loaded && r.name == name; });
    if (!used) {
      logger.log(LogLevel::kWarning,
                 "options were given for plugin '" + name + "' but no plugin of that name loaded");
    }
  }
}

// Kernels read bool elements as C++ bool, for which any byte but 0 and 1 is undefined.
void check_bool_bytes(const unsigned char* data, size_t bytes) {
  for (size_t i = 0; i < bytes; ++i) {
    if (data[i] > 1) {
      throw Error(StatusCode::kInvalidArgument,
                  "from_host: bool element " + std::to_string(i) + " holds the byte " +
                      std::to_string(data[i]) +
                      "; a bool tensor stores one byte per element, 0 or 1 (make it with "
                      "tensor<bool>, or write 0 and 1)");
    }
  }
}

}  // namespace

Runtime Runtime::create(const RuntimeOptions& options) {
  auto impl = std::make_unique<Impl>();
  if (options.log_sink) impl->logger->set_sink(options.log_sink);
  impl->config = detail::resolve_config(options);
  impl->logger->set_level(impl->config.log_level);
  impl->log_placement = impl->config.log_device_placement;
  impl->soft_placement = impl->config.soft_placement;

  detail::add_builtin_ops(impl->ops);
  try {
    impl->loaded = detail::load_plugins(
        impl->config.plugin_candidates(detail::installed_plugin_dir()),
        impl->config.plugin_options, impl->config.disabled_plugins,
        static_cast<uint32_t>(impl->config.execution.intra_op_threads), impl->logger, impl->ops,
        impl->kernels,
        detail::probe_settings(impl->config.probe_plugins,
                               std::chrono::milliseconds(impl->config.probe_timeout_ms)));
  } catch (const detail::OptionsRefused& refused) {
    // Like every configuration error, it names who set the value ("file <path>", "API").
    auto origin = impl->config.origins.find(refused.options_path());
    if (origin == impl->config.origins.end()) throw;
    throw Error(refused.code(), origin->second + ": " + refused.what());
  }
  for (const auto& plugin : impl->loaded.plugins) {
    impl->devices.add_plugin_devices(plugin, *impl->logger);
  }
  // The config's and $HXRT_VISIBLE_DEVICES's names are checked as soon as the physical
  // devices are known, as Runtime::set_visible_devices checks its own.
  if (const auto& visible = impl->config.devices.visible_devices) {
    impl->devices.check_visible_devices(*visible, impl->config.origins.at("/visible_devices"));
  }
  if (options.mpi_communicator != nullptr || detail::in_cluster(impl->config.cluster)) {
    impl->join_cluster(options.mpi_communicator);
  }
  log_start_up(*impl);
  impl->start_configured_trace();
  return Runtime(std::move(impl));
}

const std::vector<PluginReport>& Runtime::load_report() const { return impl().loaded.report; }

std::vector<DeviceInfo> Runtime::devices() const {
  impl().ensure_initialized();
  std::vector<DeviceInfo> out;
  for (const auto& device : impl().devices.all()) out.push_back(device->info());
  if (impl().cluster) {
    for (const DeviceInfo& remote : impl().cluster->remote_devices()) out.push_back(remote);
  }
  return out;
}

std::vector<KernelInfo> Runtime::kernels() const {
  std::vector<KernelInfo> out;
  for (const detail::KernelEntry* entry : impl().kernels.all()) {
    out.push_back({entry->op, entry->device_type, entry->dtypes, entry->priority, entry->plugin});
  }
  return out;
}

detail::Device& Runtime::Impl::data_device(const std::string& spec) {
  ensure_initialized();
  const std::string* scoped = spec.empty() ? innermost_scope() : nullptr;
  const bool configured = spec.empty() && scoped == nullptr;
  const std::string& wanted = !spec.empty() ? spec : scoped ? *scoped : config.tensor_device;
  if (wanted.empty()) return default_tensor_device();
  const detail::DeviceSpec parsed = detail::parse_device_name(wanted);
  std::vector<detail::Device*> found = devices.matching(parsed);
  if (!found.empty()) return *found.front();
  if (soft_placement == SoftPlacement::kSoft) return default_tensor_device();
  throw Error(StatusCode::kInvalidArgument,
              detail::to_string(parsed) + " unknown device" +
                  (configured ? " (placement.tensor_device, set by " +
                                    config.origins.at("/placement/tensor_device") + ")"
                              : std::string()) +
                  ".\nExisting devices: " + devices.describe_for(parsed));
}

detail::Device& Runtime::Impl::default_tensor_device() {
  const std::vector<std::string>& types = placer->type_priority();
  if (types.empty()) {
    throw Error(StatusCode::kFailedPrecondition,
                "no device exists to hold the tensor: no plugin provided one (see "
                "Runtime::load_report() or hxrt-info for why)");
  }
  detail::DeviceSpec first_of_type;
  first_of_type.type = types.front();
  return *devices.matching(first_of_type).front();
}

namespace {

// A copy that `copied` received: queued (a span on its device's stream until its ready event
// completes) or done before it returned (the host's span).
void trace_transfer(const detail::SpanTimer& span, const detail::TensorImpl& copied,
                    const detail::CopyTraceInfo& info) {
  if (copied.ready == nullptr) {
    detail::trace_copy(span, info);
    return;
  }
  std::shared_ptr<detail::ReadyEvent> ready = copied.ready;
  detail::note_device_copy(info, [ready] { return ready->done(); });
}

}  // namespace

Tensor Runtime::Impl::copy_to(const Tensor& tensor, detail::Device& device) {
  const detail::TensorImpl& source = *tensor.impl();
  if (source.device.get() == &device) return tensor;
  const detail::SpanTimer copy_span;
  Tensor copy = detail::copy_to_device(source, device);
  if (copy_span.on() && source.bytes > 0) {
    const bool same_plugin = &source.device->plugin() == &device.plugin();
    trace_transfer(copy_span, *copy.impl(),
                   {same_plugin ? "device to device" : "between plugins", source.bytes,
                    source.device->name(), device.name(), device.name()});
  }
  return copy;
}

std::string Runtime::Impl::ask_placement_function(const std::string& op, const TensorArg* inputs,
                                                  size_t num_inputs) {
  if (!has_placement_function.load(std::memory_order_relaxed)) return {};
  OpPlacementInfo info;
  info.op = op;
  for (size_t i = 0; i < num_inputs; ++i) {
    info.input_dtypes.push_back(inputs[i]->dtype());
    info.input_devices.push_back(inputs[i]->device());
  }
  return ask_placement_function(info);
}

std::string Runtime::Impl::ask_placement_function(const OpPlacementInfo& info) {
  PlacementFunction function;
  {
    std::lock_guard<std::mutex> lock(placement_function_mutex);
    function = placement_function;
  }
  return function ? function(info) : std::string();
}

Tensor Runtime::from_host(DType dtype, const Shape& shape, const void* data, size_t bytes,
                          const std::string& device) {
  Impl& state = impl();
  const size_t expected = tensor_bytes(dtype, shape);
  if (bytes != expected) {
    throw Error(StatusCode::kInvalidArgument,
                "from_host: shape " + shape.to_string() + " of " + dtype_name(dtype) + " needs " +
                    std::to_string(expected) + " bytes, got " + std::to_string(bytes));
  }
  if (bytes > 0 && data == nullptr) {
    throw Error(StatusCode::kInvalidArgument, "from_host: data is NULL");
  }
  if (dtype == DType::kBool) check_bool_bytes(static_cast<const unsigned char*>(data), bytes);
  detail::Device& target = state.data_device(device);
  const detail::SpanTimer copy_span;
  const bool pinned = state.pinned_regions->contains(target.plugin(), data, bytes);
  Tensor tensor = detail::tensor_from_host(target, dtype, shape, data, bytes, pinned);
  if (copy_span.on() && bytes > 0) {
    trace_transfer(copy_span, *tensor.impl(),
                   {"host to device", bytes, "host", target.name(), target.name()});
  }
  return tensor;
}

Tensor Runtime::to_device(const Tensor& tensor, const std::string& device) {
  Impl& state = impl();
  if (!tensor.valid()) throw Error(StatusCode::kInvalidArgument, "to_device: empty Tensor");
  detail::Device& target = state.data_device(device);
  if (state.log_placement && tensor.impl()->device.get() != &target) {
    state.logger->write(LogLevel::kInfo, "Copying tensor " + tensor.shape().to_string() + " " +
                                             dtype_name(tensor.dtype()) + " from " +
                                             tensor.device() + " to " + target.name());
  }
  return state.copy_to(tensor, target);
}

void Runtime::set_placement_function(PlacementFunction function) {
  std::lock_guard<std::mutex> lock(impl().placement_function_mutex);
  impl().has_placement_function = static_cast<bool>(function);
  impl().placement_function = std::move(function);
}

void Runtime::set_soft_placement(SoftPlacement mode) {
  detail::read_soft_placement(detail::json_of(mode), "set_soft_placement");  // a named value
  impl().soft_placement = mode;
  impl().record_api_setting("/placement/soft_placement",
                            [mode](detail::Config& config) { config.soft_placement = mode; });
}
SoftPlacement Runtime::soft_placement() const { return impl().soft_placement; }
std::vector<std::string> Runtime::device_priority() const {
  impl().ensure_initialized();
  return impl().placer->type_priority();
}

void Runtime::set_log_device_placement(bool enabled) {
  impl().log_placement = enabled;
  impl().record_api_setting("/log_device_placement", [enabled](detail::Config& config) {
    config.log_device_placement = enabled;
  });
}
bool Runtime::log_device_placement() const { return impl().log_placement; }
void Runtime::set_log_sink(LogSink sink) { impl().logger->set_sink(std::move(sink)); }

}  // namespace hxrt
