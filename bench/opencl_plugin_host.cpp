#include "opencl_plugin_host.hpp"

#include <dlfcn.h>

#include <stdexcept>
#include <string>

namespace hxrt_bench {

namespace {

struct Status {
  int32_t code;
  std::string message;
};

hx_status* status_create(int32_t code, const char* message) {
  return reinterpret_cast<hx_status*>(new Status{code, message ? message : ""});
}
void status_destroy(hx_status* status) { delete reinterpret_cast<Status*>(status); }
int32_t status_code(const hx_status* status) {
  return status ? reinterpret_cast<const Status*>(status)->code : HX_OK;
}
const char* status_message(const hx_status* status) {
  return status ? reinterpret_cast<const Status*>(status)->message.c_str() : "";
}
void log(hx_core*, int32_t, const char*) {}
hx_status* register_op(hx_core*, const hx_op_def*) {
  return status_create(HX_UNIMPLEMENTED, "no custom ops here");
}
hx_status* absent() { return status_create(HX_NOT_FOUND, "absent"); }
hx_status* attr_bool(const hx_kernel_context*, const char*, bool*) { return absent(); }
hx_status* attr_int(const hx_kernel_context*, const char*, int64_t*) { return absent(); }
hx_status* attr_float(const hx_kernel_context*, const char*, double*) { return absent(); }
hx_status* attr_dtype(const hx_kernel_context*, const char*, int32_t*) { return absent(); }
hx_status* attr_ints(const hx_kernel_context*, const char*, const int64_t**, size_t*) {
  return absent();
}
hx_status* attr_string(const hx_kernel_context*, const char*, const char**, size_t*) {
  return absent();
}

}  // namespace

// Keeps the plugin's MatMul registration; hx_core* is the host.
struct BenchCore {
  static hx_status* register_kernel(hx_core* core, const hx_kernel_def* def) {
    if (std::string(def->op) == "MatMul") {
      reinterpret_cast<OpenClPluginHost*>(core)->matmul_ = *def;
    }
    return nullptr;
  }
};

namespace {

const hx_core_services kServices = {
    HX_CORE_SERVICES_STRUCT_SIZE, nullptr,    status_create, status_destroy,
    status_code,                  status_message, log,       BenchCore::register_kernel,
    register_op,                  attr_bool,  attr_int,      attr_float,
    attr_dtype,                   attr_ints,  attr_string};

}  // namespace

void OpenClPluginHost::check(hx_status* status, const char* what) {
  if (status == nullptr) return;
  const std::string message = std::string(what) + ": " + status_message(status);
  status_destroy(status);
  throw std::runtime_error(message);
}

OpenClPluginHost::OpenClPluginHost() {
  const std::string path = std::string(HXRT_BENCH_PLUGIN_DIR) + "/libhx_opencl.so";
  library_ = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library_ == nullptr) throw std::runtime_error("cannot load " + path + ": " + dlerror());
  const auto init =
      reinterpret_cast<hx_plugin_init_fn>(dlsym(library_, HX_PLUGIN_INIT_SYMBOL));
  if (init == nullptr) throw std::runtime_error(path + " exports no " HX_PLUGIN_INIT_SYMBOL);
  const hx_plugin_init_args args = {HX_PLUGIN_INIT_ARGS_STRUCT_SIZE, nullptr,
                                    HX_ABI_VERSION_MAJOR,            HX_ABI_VERSION_MINOR,
                                    &kServices,                      reinterpret_cast<hx_core*>(this),
                                    "{}",                            2};
  check(init(&args, &api_), "hx_plugin_init");
  int32_t count = 0;
  check(api_->device_count(api_->plugin, &count), "device_count");
  check(api_->device_get(api_->plugin, 0, &device_), "device_get");
}

OpenClPluginHost::~OpenClPluginHost() {
  if (api_ != nullptr) api_->shutdown(api_->plugin);
  if (library_ != nullptr) dlclose(library_);
}

}  // namespace hxrt_bench
