#include "plugin_direct.hpp"

#include <dlfcn.h>

namespace cuda_direct {

// The harness's part of the fake core (tests/support/fake_core.hpp): hx_core* is the
// DirectPlugin.
struct FakeCore {
  static DirectPlugin& harness(hx_core* core) { return *reinterpret_cast<DirectPlugin*>(core); }
  static void log(hx_core* core, int32_t level, const char* message) {
    if (level >= HX_LOG_WARNING) harness(core).warnings_.emplace_back(message);
  }
  static hx_status* register_kernel(hx_core* core, const hx_kernel_def* def) {
    harness(core).kernels_.push_back(
        {def->op, std::vector<int32_t>(def->dtypes, def->dtypes + def->num_dtypes), *def});
    return nullptr;
  }
};

namespace {

// The attribute getters, answering from the Attributes behind the context.
template <class Value>
hx_status* lookup(const std::map<std::string, Value>& values, const char* name, Value* out) {
  const auto found = values.find(name);
  if (found == values.end()) return hxrt_test::fake_core::absent();
  *out = found->second;
  return nullptr;
}
const Attributes& attributes(const hx_kernel_context* context) {
  return *reinterpret_cast<const Attributes*>(context);
}
hx_status* attr_bool(const hx_kernel_context* context, const char* name, bool* out) {
  return lookup(attributes(context).bools, name, out);
}
hx_status* attr_float(const hx_kernel_context* context, const char* name, double* out) {
  return lookup(attributes(context).floats, name, out);
}
hx_status* attr_ints(const hx_kernel_context* context, const char* name, const int64_t** out,
                     size_t* count) {
  const auto& lists = attributes(context).int_lists;
  const auto found = lists.find(name);
  if (found == lists.end()) return hxrt_test::fake_core::absent();
  *out = found->second.data();
  *count = found->second.size();
  return nullptr;
}

hx_core_services make_services() {
  hx_core_services services =
      hxrt_test::fake_core_services(FakeCore::log, FakeCore::register_kernel);
  services.attr_bool = attr_bool;
  services.attr_float = attr_float;
  services.attr_ints = attr_ints;
  return services;
}

const hx_core_services kServices = make_services();

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

const RegisteredKernel& DirectPlugin::kernel(const std::string& op) const {
  for (const RegisteredKernel& kernel : kernels_) {
    if (kernel.op == op) return kernel;
  }
  FAIL("the cuda plugin registered no " << op << " kernel");
  return kernels_.front();
}

Outcome DirectPlugin::outcome(hx_status* status) { return hxrt_test::take_outcome(status); }

const hx_core_services& fake_services() { return kServices; }

void require_ok(const Outcome& outcome) {
  INFO(outcome.message);
  REQUIRE(outcome.code == HX_OK);
}

}  // namespace cuda_direct
