#include "direct_plugin.hpp"

#include <dlfcn.h>

#include <catch2/catch.hpp>

namespace plugin_direct {

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

void require_ok(const Outcome& got) {
  INFO(got.message);
  REQUIRE(got.code == HX_OK);
}

}  // namespace

View::View(hx_buffer* buffer, uint64_t byte_offset, hx_device* device, std::vector<int64_t> extents,
           std::vector<int64_t> given_strides, int32_t dtype)
    : shape(std::move(extents)), strides(std::move(given_strides)) {
  if (strides.empty()) {
    strides.assign(shape.size(), 1);
    for (size_t i = shape.size(); i-- > 1;) strides[i - 1] = strides[i] * shape[i];
  }
  view = {HX_TENSOR_VIEW_STRUCT_SIZE,
          nullptr,
          buffer,
          buffer == nullptr ? 0 : byte_offset,
          dtype,
          static_cast<int32_t>(shape.size()),
          shape.data(),
          strides.data(),
          buffer == nullptr ? nullptr : device};
}

View::View(const View& other) : shape(other.shape), strides(other.strides), view(other.view) {
  view.shape = shape.data();
  view.strides = strides.data();
}

DirectPlugin::DirectPlugin(const std::string& library, const std::string& options,
                           uint32_t core_major) {
  const std::string path = std::string(HXRT_TEST_PLUGIN_DIR) + "/" + library;
  library_ = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library_ == nullptr) FAIL("cannot load " << path << ": " << dlerror());
  const auto init = reinterpret_cast<hx_plugin_init_fn>(symbol(HX_PLUGIN_INIT_SYMBOL));
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

void* DirectPlugin::symbol(const char* name) const {
  void* address = dlsym(library_, name);
  if (address == nullptr) FAIL("the plugin does not export " << name);
  return address;
}

hx_device* DirectPlugin::device(int32_t ordinal) const {
  hx_device* device = nullptr;
  const Outcome got = outcome(api_->device_get(api_->plugin, ordinal, &device));
  if (got.code != HX_OK) FAIL("device_get(" << ordinal << "): " << got.message);
  return device;
}

hx_device_properties DirectPlugin::properties(hx_device* device) const {
  hx_device_properties props{};
  props.struct_size = HX_DEVICE_PROPERTIES_STRUCT_SIZE;
  require_ok(outcome(api_->device_properties(device, &props)));
  return props;
}

Outcome DirectPlugin::outcome(hx_status* status) { return hxrt_test::take_outcome(status); }

hx_buffer* DirectPlugin::allocate(hx_device* device, size_t size, size_t alignment) const {
  hx_buffer* buffer = nullptr;
  require_ok(outcome(api_->allocate(device, size, alignment, &buffer)));
  REQUIRE(buffer != nullptr);
  return buffer;
}

void DirectPlugin::upload(hx_device* device, hx_buffer* buffer, uint64_t offset,
                          const std::vector<float>& values) const {
  require_ok(outcome(api_->copy_host_to_device(device, nullptr, buffer, offset, values.data(),
                                               values.size() * sizeof(float))));
}

std::vector<float> DirectPlugin::download(hx_device* device, const hx_buffer* buffer,
                                          uint64_t offset, size_t count) const {
  std::vector<float> values(count);
  require_ok(outcome(api_->copy_device_to_host(device, nullptr, values.data(), buffer, offset,
                                               count * sizeof(float))));
  return values;
}

const RegisteredKernel& DirectPlugin::kernel(const std::string& op) const {
  for (const RegisteredKernel& kernel : kernels_) {
    if (kernel.op == op) return kernel;
  }
  FAIL("the plugin registered no " << op << " kernel");
  return kernels_.front();
}

KernelInstance::KernelInstance(const RegisteredKernel& kernel, hx_device* device,
                               const std::vector<int32_t>& input_dtypes,
                               const std::vector<int32_t>& output_dtypes,
                               const Attributes& attributes)
    : kernel_(kernel), attributes_(attributes) {
  if (kernel.def.create == nullptr) return;
  const hx_kernel_create_args args = {
      HX_KERNEL_CREATE_ARGS_STRUCT_SIZE,
      nullptr,
      reinterpret_cast<hx_kernel_context*>(&attributes_),
      device,
      input_dtypes.size(),
      input_dtypes.data(),
      output_dtypes.size(),
      output_dtypes.data(),
      kernel.def.user_data};
  created_ = DirectPlugin::outcome(kernel.def.create(&args, &instance_));
}

KernelInstance::~KernelInstance() {
  if (kernel_.def.destroy != nullptr) kernel_.def.destroy(instance_, kernel_.def.user_data);
}

hx_kernel_args KernelInstance::args(hx_device* device, hx_stream* stream,
                                    std::vector<hx_tensor_view>& inputs,
                                    std::vector<hx_tensor_view>& outputs) {
  // Calls see no attributes at all: a kernel with create must have read its own there, and one
  // that looked them up per call would get the op's defaults and compute something else.
  static Attributes no_attributes;
  return {HX_KERNEL_ARGS_STRUCT_SIZE,
          nullptr,
          reinterpret_cast<hx_kernel_context*>(kernel_.def.create ? &no_attributes
                                                                  : &attributes_),
          device,
          stream,
          inputs.size(),
          inputs.data(),
          outputs.size(),
          outputs.data(),
          kernel_.def.user_data,
          instance_};
}

namespace {

std::vector<hx_tensor_view> views_of(const std::vector<View>& views, bool with_buffers) {
  std::vector<hx_tensor_view> result;
  for (const View& view : views) {
    result.push_back(view.view);
    if (!with_buffers) {
      result.back().buffer = nullptr;
      result.back().byte_offset = 0;
      result.back().device = nullptr;
    }
  }
  return result;
}

}  // namespace

Outcome KernelInstance::check(hx_device* device, const std::vector<View>& inputs,
                              const std::vector<View>& outputs) {
  if (kernel_.def.check == nullptr) return {};
  std::vector<hx_tensor_view> in = views_of(inputs, false);
  std::vector<hx_tensor_view> out = views_of(outputs, false);
  const hx_kernel_args call = args(device, nullptr, in, out);
  return DirectPlugin::outcome(kernel_.def.check(&call));
}

Outcome KernelInstance::compute(hx_device* device, hx_stream* stream,
                                const std::vector<View>& inputs,
                                const std::vector<View>& outputs) {
  std::vector<hx_tensor_view> in = views_of(inputs, true);
  std::vector<hx_tensor_view> out = views_of(outputs, true);
  const hx_kernel_args call = args(device, stream, in, out);
  return DirectPlugin::outcome(kernel_.def.compute(&call));
}

}  // namespace plugin_direct
