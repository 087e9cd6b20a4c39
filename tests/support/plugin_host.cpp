#include "plugin_host.hpp"

#include <dlfcn.h>

#include <stdexcept>

namespace hxrt_test {

// The host's part of the fake core: hx_core* is the PluginHost.
struct FakeCore {
  static PluginHost& host(hx_core* core) { return *reinterpret_cast<PluginHost*>(core); }
  static void log(hx_core* core, int32_t level, const char* message) {
    if (level >= HX_LOG_WARNING) host(core).warnings_.emplace_back(message);
  }
  static hx_status* register_kernel(hx_core* core, const hx_kernel_def* def) {
    RegisteredKernel kernel;
    kernel.op = def->op;
    kernel.dtypes.assign(def->dtypes, def->dtypes + def->num_dtypes);
    if (def->output_dtypes != nullptr) {
      kernel.output_dtypes.assign(def->output_dtypes,
                                  def->output_dtypes + def->num_output_dtypes);
    }
    kernel.def = *def;
    host(core).kernels_.push_back(kernel);
    return nullptr;
  }
};

namespace {

// The attribute getters, answering from the Attributes behind the context.
const Attributes& attributes(const hx_kernel_context* context) {
  static const Attributes none;
  return context ? *reinterpret_cast<const Attributes*>(context) : none;
}
template <class Value>
hx_status* lookup(const std::map<std::string, Value>& values, const char* name, Value* out) {
  const auto found = values.find(name);
  if (found == values.end()) return fake_core::absent();
  *out = found->second;
  return nullptr;
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
  if (found == lists.end()) return fake_core::absent();
  *out = found->second.data();
  *count = found->second.size();
  return nullptr;
}

hx_core_services make_services() {
  hx_core_services services = fake_core_services(FakeCore::log, FakeCore::register_kernel);
  services.attr_bool = attr_bool;
  services.attr_float = attr_float;
  services.attr_ints = attr_ints;
  return services;
}

const hx_core_services kServices = make_services();

}  // namespace

const hx_core_services& PluginHost::services() { return kServices; }

void PluginHost::check(hx_status* status, const std::string& what) {
  if (status == nullptr) return;
  const Outcome got = outcome(status);
  throw std::runtime_error(what + ": " + got.message);
}

PluginHost::PluginHost(const std::string& path, const std::string& options,
                       uint32_t core_major, uint32_t core_minor)
    : path_(path) {
  library_ = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library_ == nullptr) throw std::runtime_error("cannot load " + path + ": " + dlerror());
  void* init_symbol = dlsym(library_, HX_PLUGIN_INIT_SYMBOL);
  if (init_symbol == nullptr) {
    dlclose(library_);  // no destructor runs after a constructor throws
    throw std::runtime_error(path + " does not export " HX_PLUGIN_INIT_SYMBOL);
  }
  const auto init = reinterpret_cast<hx_plugin_init_fn>(init_symbol);
  const hx_plugin_init_args args = {HX_PLUGIN_INIT_ARGS_STRUCT_SIZE,
                                    nullptr,
                                    core_major,
                                    core_minor,
                                    &kServices,
                                    reinterpret_cast<hx_core*>(this),
                                    options.c_str(),
                                    options.size(),
                                    0};  // intra_op_threads: the plugin's default
  init_outcome_ = outcome(init(&args, &api_));
  if (init_outcome_.code != HX_OK) api_ = nullptr;
}

PluginHost::~PluginHost() {
  if (api_ != nullptr) api_->shutdown(api_->plugin);
  dlclose(library_);
}

void* PluginHost::symbol(const char* name) const {
  void* address = dlsym(library_, name);
  if (address == nullptr) throw std::runtime_error(path_ + " does not export " + name);
  return address;
}

int32_t PluginHost::device_count(Outcome* outcome_out) const {
  int32_t count = -1;
  *outcome_out = outcome(api_->device_count(api_->plugin, &count));
  return count;
}

hx_device* PluginHost::device(int32_t ordinal) const {
  hx_device* device = nullptr;
  check(api_->device_get(api_->plugin, ordinal, &device),
        "device_get(" + std::to_string(ordinal) + ")");
  return device;
}

const RegisteredKernel& PluginHost::kernel(const std::string& op) const {
  for (const RegisteredKernel& kernel : kernels_) {
    if (kernel.op == op) return kernel;
  }
  throw std::runtime_error(path_ + " registered no " + op + " kernel");
}

}  // namespace hxrt_test
