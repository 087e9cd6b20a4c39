#include "opencl_harness.hpp"

#include <dlfcn.h>

#include <catch2/catch.hpp>

#include <hxrt/plugin_vocabulary.h>

#include <new>

namespace opencl_test {

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
hx_status* register_op(hx_core*, const hx_op_def*) {
  return status_create(HX_UNIMPLEMENTED, "the fake core takes no custom ops");
}

const Attributes& attributes_of(const hx_kernel_context* context) {
  static const Attributes none;
  return context ? *reinterpret_cast<const Attributes*>(context) : none;
}
template <class Map, class Value>
hx_status* lookup(const hx_kernel_context* context, const Map& (*pick)(const Attributes&),
                  const char* name, Value* out) {
  const Map& map = pick(attributes_of(context));
  const auto found = map.find(name);
  if (found == map.end()) return status_create(HX_NOT_FOUND, "no such attribute");
  *out = found->second;
  return nullptr;
}
const std::map<std::string, bool>& bools(const Attributes& a) { return a.bools; }
const std::map<std::string, double>& floats(const Attributes& a) { return a.floats; }

hx_status* attr_bool(const hx_kernel_context* context, const char* name, bool* out) {
  return lookup(context, bools, name, out);
}
hx_status* attr_float(const hx_kernel_context* context, const char* name, double* out) {
  return lookup(context, floats, name, out);
}
hx_status* attr_ints(const hx_kernel_context* context, const char* name, const int64_t** out,
                     size_t* count) {
  const auto& lists = attributes_of(context).int_lists;
  const auto found = lists.find(name);
  if (found == lists.end()) return status_create(HX_NOT_FOUND, "no such attribute");
  *out = found->second.data();
  *count = found->second.size();
  return nullptr;
}
hx_status* absent_int(const hx_kernel_context*, const char*, int64_t*) {
  return status_create(HX_NOT_FOUND, "no such attribute");
}
hx_status* absent_dtype(const hx_kernel_context*, const char*, int32_t*) {
  return status_create(HX_NOT_FOUND, "no such attribute");
}
hx_status* absent_string(const hx_kernel_context*, const char*, const char**, size_t*) {
  return status_create(HX_NOT_FOUND, "no such attribute");
}

std::string plugin_path() { return std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_opencl.so"; }

}  // namespace

// The harness's part of the fake core: hx_core* is the DirectPlugin.
struct FakeCore {
  static DirectPlugin& harness(hx_core* core) { return *reinterpret_cast<DirectPlugin*>(core); }
  static void log(hx_core* core, int32_t level, const char* message) {
    if (level == HX_LOG_WARNING) harness(core).warnings_.emplace_back(message);
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
    harness(core).kernels_.push_back(kernel);
    return nullptr;
  }
};

namespace {

const hx_core_services kServices = {HX_CORE_SERVICES_STRUCT_SIZE,
                                    nullptr,
                                    status_create,
                                    status_destroy,
                                    status_code,
                                    status_message,
                                    FakeCore::log,
                                    FakeCore::register_kernel,
                                    register_op,
                                    attr_bool,
                                    absent_int,
                                    attr_float,
                                    absent_dtype,
                                    attr_ints,
                                    absent_string};

}  // namespace

DirectPlugin::DirectPlugin(const std::string& options, uint32_t core_major) {
  library_ = dlopen(plugin_path().c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library_ == nullptr) FAIL("cannot load " << plugin_path() << ": " << dlerror());
  void* init_symbol = dlsym(library_, HX_PLUGIN_INIT_SYMBOL);
  if (init_symbol == nullptr) FAIL("libhx_opencl.so does not export " HX_PLUGIN_INIT_SYMBOL);
  const auto init = reinterpret_cast<hx_plugin_init_fn>(init_symbol);
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

const RegisteredKernel& DirectPlugin::kernel(const std::string& op) const {
  for (const RegisteredKernel& kernel : kernels_) {
    if (kernel.op == op) return kernel;
  }
  FAIL("the plugin registered no " << op << " kernel");
  return kernels_.front();
}

Outcome DirectPlugin::outcome(hx_status* status) {
  Outcome result{status_code(status), status_message(status)};
  status_destroy(status);
  return result;
}

Buffer::Buffer(const DirectPlugin& plugin, hx_device* device, size_t size)
    : plugin_(plugin), device_(device), size_(size) {
  const Outcome got = DirectPlugin::outcome(plugin.api().allocate(device, size, 1, &handle_));
  if (got.code != HX_OK) FAIL("allocate(" << size << "): " << got.message);
}

Buffer::~Buffer() { plugin_.api().deallocate(device_, handle_, size_); }

void Buffer::write(uint64_t offset, const void* data, size_t size) const {
  const Outcome got = DirectPlugin::outcome(
      plugin_.api().copy_host_to_device(device_, nullptr, handle_, offset, data, size));
  if (got.code != HX_OK) FAIL("copy_host_to_device: " << got.message);
}

void Buffer::read(uint64_t offset, void* data, size_t size) const {
  const Outcome got = DirectPlugin::outcome(
      plugin_.api().copy_device_to_host(device_, nullptr, data, handle_, offset, size));
  if (got.code != HX_OK) FAIL("copy_device_to_host: " << got.message);
}

Tensor::Tensor(const Buffer& buffer, uint64_t byte_offset, int32_t dtype,
               std::vector<int64_t> shape, std::vector<int64_t> strides)
    : buffer(&buffer),
      byte_offset(byte_offset),
      dtype(dtype),
      shape(std::move(shape)),
      strides(std::move(strides)) {
  if (this->strides.empty()) {
    this->strides.resize(this->shape.size());
    int64_t stride = 1;
    for (size_t axis = this->shape.size(); axis-- > 0;) {
      this->strides[axis] = stride;
      stride *= this->shape[axis];
    }
  }
}

hx_tensor_view Tensor::view(hx_device* device) const {
  hx_tensor_view view{};
  view.struct_size = HX_TENSOR_VIEW_STRUCT_SIZE;
  view.buffer = buffer->handle();
  view.byte_offset = byte_offset;
  view.dtype = dtype;
  view.rank = static_cast<int32_t>(shape.size());
  view.shape = shape.data();
  view.strides = strides.data();
  view.device = device;
  return view;
}

Outcome run_kernel(const DirectPlugin& plugin, const std::string& op,
                   const std::vector<Tensor>& inputs, const std::vector<Tensor>& outputs,
                   const Attributes& attributes, hx_stream* stream) {
  const hx_kernel_def& def = plugin.kernel(op).def;
  hx_device* device = plugin.device(0);
  auto* context = reinterpret_cast<hx_kernel_context*>(const_cast<Attributes*>(&attributes));
  std::vector<int32_t> input_dtypes;
  std::vector<hx_tensor_view> input_views;
  for (const Tensor& input : inputs) {
    input_dtypes.push_back(input.dtype);
    input_views.push_back(input.view(device));
  }
  std::vector<int32_t> output_dtypes;
  std::vector<hx_tensor_view> output_views;
  for (const Tensor& output : outputs) {
    output_dtypes.push_back(output.dtype);
    output_views.push_back(output.view(device));
  }
  hx_kernel_instance* instance = nullptr;
  if (def.create != nullptr) {
    const hx_kernel_create_args create_args = {
        HX_KERNEL_CREATE_ARGS_STRUCT_SIZE, nullptr, context, device,
        input_dtypes.size(), input_dtypes.data(), output_dtypes.size(), output_dtypes.data(),
        def.user_data};
    const Outcome created = DirectPlugin::outcome(def.create(&create_args, &instance));
    if (created.code != HX_OK) return created;
  }
  const hx_kernel_args args = {HX_KERNEL_ARGS_STRUCT_SIZE, nullptr,
                               context, device,
                               stream, input_views.size(),
                               input_views.data(), output_views.size(),
                               output_views.data(), def.user_data,
                               instance};
  Outcome computed = DirectPlugin::outcome(def.compute(&args));
  if (computed.code == HX_OK && stream != nullptr) {
    computed = DirectPlugin::outcome(plugin.api().streams->synchronize(device, stream));
  }
  if (def.destroy != nullptr) def.destroy(instance, def.user_data);
  return computed;
}

}  // namespace opencl_test
