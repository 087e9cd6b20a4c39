#include "plugin_direct.hpp"

#include <dlfcn.h>

namespace cuda_direct {

// The fake core: statuses are heap objects of this type; hx_core* is the DirectPlugin.
struct FakeStatus {
  hx_status_code code;
  std::string message;
};

struct FakeCore {
  static hx_status* status_create(hx_status_code code, const char* message) {
    return reinterpret_cast<hx_status*>(new FakeStatus{code, message ? message : ""});
  }
  static void status_destroy(hx_status* status) { delete reinterpret_cast<FakeStatus*>(status); }
  static hx_status_code status_code(const hx_status* status) {
    return status ? reinterpret_cast<const FakeStatus*>(status)->code : HX_OK;
  }
  static const char* status_message(const hx_status* status) {
    return status ? reinterpret_cast<const FakeStatus*>(status)->message.c_str() : "";
  }
  static DirectPlugin& harness(hx_core* core) { return *reinterpret_cast<DirectPlugin*>(core); }
  static void log(hx_core* core, hx_log_level level, const char* message) {
    if (level >= HX_LOG_WARNING) harness(core).warnings_.emplace_back(message);
  }
  static hx_status* register_kernel(hx_core* core, const hx_kernel_def* def) {
    harness(core).kernels_.push_back({def->op, def->device_type, def->user_data});
    return nullptr;
  }
  static hx_status* register_op(hx_core*, const hx_op_def*) {
    return status_create(HX_UNIMPLEMENTED, "the fake core takes no custom ops");
  }
  // Every attribute is absent, so kernels apply the op's defaults.
  static hx_status* absent() { return status_create(HX_NOT_FOUND, "no such attribute"); }
  static hx_status* attr_bool(const hx_kernel_context*, const char*, bool*) { return absent(); }
  static hx_status* attr_int(const hx_kernel_context*, const char*, int64_t*) { return absent(); }
  static hx_status* attr_float(const hx_kernel_context*, const char*, double*) { return absent(); }
  static hx_status* attr_dtype(const hx_kernel_context*, const char*, hx_dtype*) {
    return absent();
  }
  static hx_status* attr_ints(const hx_kernel_context*, const char*, const int64_t**, size_t*) {
    return absent();
  }
  static hx_status* attr_string(const hx_kernel_context*, const char*, const char**, size_t*) {
    return absent();
  }
};

namespace {

const hx_core_services kServices = {HX_CORE_SERVICES_STRUCT_SIZE,
                                    nullptr,
                                    FakeCore::status_create,
                                    FakeCore::status_destroy,
                                    FakeCore::status_code,
                                    FakeCore::status_message,
                                    FakeCore::log,
                                    FakeCore::register_kernel,
                                    FakeCore::register_op,
                                    FakeCore::attr_bool,
                                    FakeCore::attr_int,
                                    FakeCore::attr_float,
                                    FakeCore::attr_dtype,
                                    FakeCore::attr_ints,
                                    FakeCore::attr_string};

std::string cuda_plugin_path() { return std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_cuda.so"; }

}  // namespace

DirectPlugin::DirectPlugin(const std::string& options, uint32_t core_major) {
  library_ = dlopen(cuda_plugin_path().c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library_ == nullptr) FAIL("cannot load " << cuda_plugin_path() << ": " << dlerror());
  const auto init = reinterpret_cast<hx_plugin_init_fn>(dlsym(library_, HX_PLUGIN_INIT_SYMBOL));
  if (init == nullptr) FAIL("libhx_cuda.so does not export " << HX_PLUGIN_INIT_SYMBOL);
  const hx_plugin_init_args args = {HX_PLUGIN_INIT_ARGS_STRUCT_SIZE,
                                    nullptr,
                                    core_major,
                                    HX_ABI_VERSION_MINOR,
                                    &kServices,
                                    reinterpret_cast<hx_core*>(this),
                                    options.c_str(),
                                    options.size()};
  init_outcome_ = outcome(init(&args, &api_));
  if (init_outcome_.code != HX_OK) api_ = nullptr;
}

DirectPlugin::~DirectPlugin() {
  if (api_ != nullptr) api_->shutdown(api_->plugin);
  dlclose(library_);
}

int32_t DirectPlugin::device_count(Outcome* outcome_out) const {
  int32_t count = -1;
  *outcome_out = outcome(api_->device_count(api_->plugin, &count));
  return count;
}

hx_device* DirectPlugin::device(int32_t ordinal) const {
  hx_device* device = nullptr;
  const Outcome got = outcome(api_->device_get(api_->plugin, ordinal, &device));
  if (got.code != HX_OK) FAIL("device_get(" << ordinal << "): " << got.message);
  return device;
}

Outcome DirectPlugin::outcome(hx_status* status) {
  Outcome result{FakeCore::status_code(status), FakeCore::status_message(status)};
  FakeCore::status_destroy(status);
  return result;
}

const hx_core_services& fake_services() { return kServices; }

void require_ok(const Outcome& outcome) {
  INFO(outcome.message);
  REQUIRE(outcome.code == HX_OK);
}

}  // namespace cuda_direct
