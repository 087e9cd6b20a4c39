#include "opencl_harness.hpp"

#include <catch2/catch.hpp>
#include <cmath>

namespace opencl_test {

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
  hx_device* device = plugin.device(0);
  std::vector<int32_t> input_dtypes;
  std::vector<hxrt_test::View> input_views;
  for (const Tensor& input : inputs) {
    input_dtypes.push_back(input.dtype);
    input_views.emplace_back(input.buffer->handle(), input.byte_offset, device, input.shape,
                             input.strides, input.dtype);
  }
  std::vector<int32_t> output_dtypes;
  std::vector<hxrt_test::View> output_views;
  for (const Tensor& output : outputs) {
    output_dtypes.push_back(output.dtype);
    output_views.emplace_back(output.buffer->handle(), output.byte_offset, device, output.shape,
                              output.strides, output.dtype);
  }
  hxrt_test::KernelInstance instance(plugin.kernel(op), device, input_dtypes, output_dtypes,
                                     attributes);
  if (instance.created().code != HX_OK) return instance.created();
  Outcome computed = instance.compute(device, stream, input_views, output_views);
  if (computed.code == HX_OK && stream != nullptr) {
    computed = DirectPlugin::outcome(plugin.api().streams->synchronize(device, stream));
  }
  return computed;
}

void check_close(const std::vector<float>& got, const std::vector<float>& expected) {
  REQUIRE(got.size() == expected.size());
  for (size_t i = 0; i < got.size(); ++i) {
    INFO("element " << i);
    if (std::isnan(expected[i])) {
      CHECK(std::isnan(got[i]));
    } else {
      CHECK(got[i] == Approx(expected[i]).epsilon(1e-5).margin(1e-5));
    }
  }
}

}  // namespace opencl_test
