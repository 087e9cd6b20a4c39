#include "plugin_session.hpp"

namespace hxrt_conformance {

PluginSession::PluginSession(const PluginLibrary& library, const std::string& options,
                             CoreVersion version)
    : core_(version.services_size) {
  if (library.init() == nullptr) {
    init_outcome_ = {HX_FAILED_PRECONDITION, library.error()};
    return;
  }
  const hx_plugin_init_args args = {HX_PLUGIN_INIT_ARGS_STRUCT_SIZE,
                                    nullptr,
                                    version.major,
                                    version.minor,
                                    core_.services(),
                                    core_.handle(),
                                    options.c_str(),
                                    options.size()};
  const hx_plugin_api* api = nullptr;
  init_outcome_ = KitCore::take(library.init()(&args, &api));
  core_.close_registration();
  if (!init_outcome_.ok()) return;
  if (api == nullptr) {
    init_outcome_ = {HX_INTERNAL, "hx_plugin_init returned success but left *out_api NULL"};
    return;
  }
  api_ = api;
  list_devices();
}

PluginSession::~PluginSession() { shutdown(); }

void PluginSession::shutdown() {
  if (!initialised()) return;
  shut_down_ = true;
  if (api_->shutdown != nullptr) api_->shutdown(api_->plugin);
}

bool PluginSession::has_streams() const {
  return api_->stream_create && api_->stream_destroy && api_->stream_synchronize &&
         api_->stream_query && api_->stream_wait_event;
}

bool PluginSession::has_events() const {
  return api_->event_create && api_->event_destroy && api_->event_record &&
         api_->event_synchronize && api_->event_query;
}

bool PluginSession::has_host_memory() const {
  return api_->host_allocate && api_->host_deallocate;
}

void PluginSession::list_devices() {
  if (api_->device_count == nullptr || api_->device_get == nullptr) {
    no_devices_reason_ = "the table has no device_count or device_get";
    return;
  }
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
  return std::string(status_code_name(outcome.code)) + ": " + outcome.message;
}

}  // namespace hxrt_conformance
