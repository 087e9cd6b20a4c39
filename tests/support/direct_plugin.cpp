#include "direct_plugin.hpp"

#include <catch2/catch.hpp>

namespace hxrt_test {

void require_ok(const Outcome& outcome) {
  INFO(outcome.message);
  REQUIRE(outcome.code == HX_OK);
}

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
                           uint32_t core_major, uint32_t core_minor)
    : PluginHost(std::string(HXRT_TEST_PLUGIN_DIR) + "/" + library, options, core_major,
                 core_minor) {}

hx_device_properties DirectPlugin::properties(hx_device* device) const {
  hx_device_properties props{};
  props.struct_size = HX_DEVICE_PROPERTIES_STRUCT_SIZE;
  require_ok(outcome(api().device_properties(device, &props)));
  return props;
}

hx_buffer* DirectPlugin::allocate(hx_device* device, size_t size, size_t alignment) const {
  hx_buffer* buffer = nullptr;
  require_ok(outcome(api().allocate(device, size, alignment, &buffer)));
  REQUIRE(buffer != nullptr);
  return buffer;
}

void DirectPlugin::upload(hx_device* device, hx_buffer* buffer, uint64_t offset,
                          const std::vector<float>& values) const {
  require_ok(outcome(api().copy_host_to_device(device, nullptr, buffer, offset, values.data(),
                                               values.size() * sizeof(float))));
}

std::vector<float> DirectPlugin::download(hx_device* device, const hx_buffer* buffer,
                                          uint64_t offset, size_t count) const {
  std::vector<float> values(count);
  require_ok(outcome(api().copy_device_to_host(device, nullptr, values.data(), buffer, offset,
                                               count * sizeof(float))));
  return values;
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
      attributes_.context(),
      device,
      input_dtypes.size(),
      input_dtypes.data(),
      output_dtypes.size(),
      output_dtypes.data(),
      kernel.def.user_data};
  created_ = PluginHost::outcome(kernel.def.create(&args, &instance_));
}

KernelInstance::~KernelInstance() {
  if (kernel_.def.destroy != nullptr) kernel_.def.destroy(instance_, kernel_.def.user_data);
}

hx_kernel_args KernelInstance::args(hx_device* device, hx_stream* stream,
                                    std::vector<hx_tensor_view>& inputs,
                                    std::vector<hx_tensor_view>& outputs) {
  // Calls see no attributes at all: a kernel with create must have read its own there, and one
  // that looked them up per call would get the op's defaults and compute something else.
  static const Attributes no_attributes;
  return {HX_KERNEL_ARGS_STRUCT_SIZE,
          nullptr,
          kernel_.def.create ? no_attributes.context() : attributes_.context(),
          device,
          stream,
          inputs.size(),
          inputs.data(),
          outputs.size(),
          outputs.data(),
          kernel_.def.user_data,
          instance_,
          nullptr,
          nullptr};
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
  return PluginHost::outcome(kernel_.def.check(&call));
}

Outcome KernelInstance::compute(hx_device* device, hx_stream* stream,
                                const std::vector<View>& inputs,
                                const std::vector<View>& outputs) {
  std::vector<hx_tensor_view> in = views_of(inputs, true);
  std::vector<hx_tensor_view> out = views_of(outputs, true);
  const hx_kernel_args call = args(device, stream, in, out);
  return PluginHost::outcome(kernel_.def.compute(&call));
}

}  // namespace hxrt_test
