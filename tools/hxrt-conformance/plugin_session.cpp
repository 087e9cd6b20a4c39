#include "plugin_session.hpp"

namespace hxrt_conformance {

PluginSession::PluginSession(const PluginLibrary& library, const std::string& options,
                             CoreVersion version)
    : core_(version.services_size) {
  if (library.init() == nullptr) {
    init_outcome_ = {HX_FAILED_PRECONDITION, library.error()};
    return;
  }
  // The fields beyond init_args_size are zero, as a reader of an older core's struct must
  // take them. intra_op_threads is 0: the plugin's own default.
  hx_plugin_init_args args{};
  args.struct_size = version.init_args_size;
  args.core_abi_major = version.major;
  args.core_abi_minor = version.minor;
  args.services = core_.services();
  args.core = core_.handle();
  args.options_json = options.c_str();
  args.options_json_length = options.size();
  core_.set_options(options);
  const hx_plugin_api* api = nullptr;
  init_outcome_ = KitCore::take(library.init()(&args, &api));
  core_.close_registration();
  if (!init_outcome_.ok()) return;
  if (api == nullptr) {
    init_outcome_ = {HX_INTERNAL, "hx_plugin_init returned success but left *out_api NULL"};
    return;
  }
  api_ = api;
  table_problem_ = find_table_problem(*api);
  if (table_problem_.empty()) list_devices();
}

PluginSession::~PluginSession() { shutdown(); }

void PluginSession::shutdown() {
  if (!initialised()) return;
  shut_down_ = true;
  if (api_->shutdown != nullptr) api_->shutdown(api_->plugin);
}

std::string find_table_problem(const hx_plugin_api& api) {
  if (api.abi_major != HX_ABI_VERSION_MAJOR) {
    return "the table speaks ABI " + std::to_string(api.abi_major) + "." +
           std::to_string(api.abi_minor) + " and the kit " +
           std::to_string(HX_ABI_VERSION_MAJOR) + "." + std::to_string(HX_ABI_VERSION_MINOR);
  }
  if (api.struct_size < HX_PLUGIN_API_REQUIRED_SIZE) {
    return "the table's struct_size " + std::to_string(api.struct_size) + " is below " +
           std::to_string(HX_PLUGIN_API_REQUIRED_SIZE);
  }
  if (const char* group = hx_plugin_api_short_group(&api)) {
    return std::string("the ") + group + " group's struct_size is too small";
  }
  if (const char* function = hx_plugin_api_missing_function(&api)) {
    return std::string("the table has no ") + function;
  }
  return {};
}

bool PluginSession::has_streams() const { return api_->streams != nullptr; }

bool PluginSession::has_events() const { return api_->events != nullptr; }
bool PluginSession::has_event_timing() const {
  return hx_event_api_has_elapsed_ns(api_->events);
}

bool PluginSession::has_host_memory() const { return api_->host_memory != nullptr; }

void PluginSession::list_devices() {
  int32_t count = 0;
  const Outcome counted = KitCore::take(api_->device_count(api_->plugin, &count));
  if (!counted.ok()) {
    no_devices_reason_ = "device_count says " + describe(counted);
    return;
  }
  if (count <= 0) {
    no_devices_reason_ = "device_count says 0";
    return;
  }
  for (int32_t ordinal = 0; ordinal < count; ++ordinal) {
    hx_device* device = nullptr;
    const Outcome got = KitCore::take(api_->device_get(api_->plugin, ordinal, &device));
    if (!got.ok() || device == nullptr) {
      devices_.clear();
      no_devices_reason_ = "device_get(" + std::to_string(ordinal) + ") failed: " +
                           (got.ok() ? std::string("it returned NULL") : describe(got));
      return;
    }
    devices_.push_back(device);
  }
}

std::string describe(const Outcome& outcome) {
  if (outcome.ok()) return "OK";
  return std::string(hx_status_code_name(outcome.code)) + ": " + outcome.message;
}

}  // namespace hxrt_conformance
