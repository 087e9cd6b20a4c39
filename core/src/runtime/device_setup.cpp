// The device setup API: physical devices, the setters allowed before initialisation (with
// TensorFlow's errors after), initialisation itself, and per-device memory figures.
#include "base/device_name.hpp"
#include "runtime/runtime_impl.hpp"

namespace hxrt {
namespace {

constexpr const char* kVisibleFixed = "Visible devices cannot be modified after being initialized";
constexpr const char* kVirtualFixed = "Virtual devices cannot be modified after being initialized";
constexpr const char* kPhysicalFixed =
    "Physical devices cannot be modified after being initialized";
constexpr const char* kApiSource = "API";
constexpr const char* kSetupFixedHint =
    ": the device setup is fixed by the first op, tensor or device query; make this call "
    "before it (or set it in the config file)";

}  // namespace

void Runtime::Impl::initialize() {
  std::lock_guard<std::mutex> lock(setup_mutex);
  if (initialized.load(std::memory_order_relaxed)) return;
  devices.create_logical_devices(config.devices, *logger);
  placer = std::make_unique<detail::Placer>(devices, kernels, config.device_priority);
  initialized.store(true, std::memory_order_release);
}

std::unique_lock<std::mutex> Runtime::Impl::lock_setup(const char* guide_error) {
  std::unique_lock<std::mutex> lock(setup_mutex);
  if (initialized.load(std::memory_order_relaxed)) {
    throw Error(StatusCode::kFailedPrecondition, std::string(guide_error) + kSetupFixedHint);
  }
  return lock;
}

detail::Device& Runtime::Impl::named_device(const std::string& name) {
  ensure_initialized();
  const detail::DeviceSpec spec = detail::parse_device_name(name);
  if (!spec.fully_specified()) {
    throw Error(StatusCode::kInvalidArgument,
                "'" + name + "' names no single device; give a type and an id, like \"GPU:0\"");
  }
  std::vector<detail::Device*> found = devices.matching(spec);
  if (found.empty()) {
    throw Error(StatusCode::kInvalidArgument, detail::to_string(spec) +
                                                  " unknown device.\nExisting devices: " +
                                                  devices.describe_for(spec));
  }
  return *found.front();
}

std::vector<PhysicalDeviceInfo> Runtime::physical_devices() const {
  std::lock_guard<std::mutex> lock(impl().setup_mutex);
  return impl().devices.physical_info();
}

void Runtime::set_visible_devices(const std::vector<std::string>& physical_devices) {
  Impl& impl = this->impl();
  std::lock_guard<std::mutex> lock(impl.setup_mutex);
  detail::Config proposed;  // the names checked and made canonical, before anything changes
  proposed.devices = impl.config.devices;
  detail::set_visible_devices(proposed, physical_devices, kApiSource);
  impl.devices.check_visible_devices(*proposed.devices.visible_devices, kApiSource);
  if (impl.initialized.load(std::memory_order_relaxed)) {
    // As TensorFlow: naming again the devices that are visible changes nothing.
    if (impl.devices.makes_same_devices(proposed.devices)) return;
    throw Error(StatusCode::kFailedPrecondition, std::string(kVisibleFixed) + kSetupFixedHint);
  }
  impl.config.devices.visible_devices = proposed.devices.visible_devices;
  impl.config.origins["/visible_devices"] = kApiSource;
}

void Runtime::set_device_count(const std::string& type, int count) {
  auto lock = impl().lock_setup(kVisibleFixed);
  detail::set_device_count(impl().config, type, count, kApiSource);
}

void Runtime::set_logical_devices(const std::string& physical_device,
                                  const std::vector<LogicalDeviceConfig>& devices) {
  auto lock = impl().lock_setup(kVirtualFixed);
  detail::set_logical_devices(impl().config, physical_device, devices, kApiSource);
}

void Runtime::set_memory_policy(const std::string& type_or_device, const MemoryPolicy& policy) {
  auto lock = impl().lock_setup(kPhysicalFixed);
  detail::set_memory_policy(impl().config, type_or_device, policy, kApiSource);
}

void Runtime::initialize() { impl().ensure_initialized(); }
bool Runtime::initialized() const { return impl().initialized.load(std::memory_order_acquire); }

MemoryStats Runtime::memory_stats(const std::string& device) const {
  return impl().named_device(device).memory_stats();
}

void Runtime::reset_peak_memory(const std::string& device) {
  impl().named_device(device).reset_peak_memory();
}

size_t Runtime::release_unused_memory(const std::string& device) {
  if (!device.empty()) return impl().named_device(device).release_unused_memory();
  impl().ensure_initialized();
  size_t released = 0;
  for (const auto& each : impl().devices.all()) released += each->release_unused_memory();
  return released;
}

std::vector<ConfigSetting> Runtime::effective_config() const {
  std::lock_guard<std::mutex> lock(impl().setup_mutex);
  return detail::effective_settings(impl().config);
}

}  // namespace hxrt
