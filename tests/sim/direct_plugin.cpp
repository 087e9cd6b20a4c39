#include "direct_plugin.hpp"

#include <dlfcn.h>

#include <catch2/catch.hpp>

namespace sim_direct {

// The harness's part of the fake core (tests/support/fake_core.hpp): hx_core* is the
// DirectPlugin.
struct FakeCore {
  static DirectPlugin& harness(hx_core* core) { return *reinterpret_cast<DirectPlugin*>(core); }
  static void log(hx_core* core, hx_log_level level, const char* message) {
    if (level == HX_LOG_WARNING) harness(core).warnings_.emplace_back(message);
  }
  static hx_status* register_kernel(hx_core* core, const hx_kernel_def* def) {
    harness(core).kernels_.push_back({def->op,
                                      def->device_type,
                                      {def->dtypes, def->dtypes + def->num_dtypes},
                                      def->priority,
                                      def->compute,
                                      def->user_data});
    return nullptr;
  }
};

namespace {

const hx_core_services kServices =
    hxrt_test::fake_core_services(FakeCore::log, FakeCore::register_kernel);

std::string sim_plugin_path() { return std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_sim.so"; }

template <class Function>
Function symbol(void* library, const char* name) {
  void* address = dlsym(library, name);
  if (address == nullptr) FAIL("libhx_sim.so does not export " << name);
  return reinterpret_cast<Function>(address);
}

}  // namespace

DirectPlugin::DirectPlugin(const std::string& options, uint32_t core_major) {
  library_ = dlopen(sim_plugin_path().c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library_ == nullptr) FAIL("cannot load " << sim_plugin_path() << ": " << dlerror());
  const auto init = symbol<hx_plugin_init_fn>(library_, HX_PLUGIN_INIT_SYMBOL);
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

hx_device* DirectPlugin::device(int32_t ordinal) const {
  hx_device* device = nullptr;
  const Outcome got = outcome(api_->device_get(api_->plugin, ordinal, &device));
  if (got.code != HX_OK) FAIL("device_get(" << ordinal << "): " << got.message);
  return device;
}

Outcome DirectPlugin::outcome(hx_status* status) { return hxrt_test::take_outcome(status); }

const RegisteredKernel& DirectPlugin::kernel(const std::string& op) const {
  for (const RegisteredKernel& kernel : kernels_) {
    if (kernel.op == op) return kernel;
  }
  FAIL("the plugin registered no " << op << " kernel");
  return kernels_.front();
}

hx_sim_transfer_counts_t DirectPlugin::counts(int32_t ordinal) const {
  hx_sim_transfer_counts_t counts{};
  counts.struct_size = HX_SIM_TRANSFER_COUNTS_STRUCT_SIZE;
  const auto read = symbol<hx_sim_transfer_counts_fn>(library_, HX_SIM_TRANSFER_COUNTS_SYMBOL);
  REQUIRE(read(ordinal, &counts) == 0);
  return counts;
}

void DirectPlugin::reset_counts() const {
  symbol<hx_sim_reset_transfer_counts_fn>(library_, HX_SIM_RESET_TRANSFER_COUNTS_SYMBOL)();
}

}  // namespace sim_direct
