// The OpenCL plugin driven through its function table by the fake core of the direct-plugin
// tests (tests/support/direct_plugin.hpp), so that devices, memory, streams and every kernel
// are tested without the core; here, buffers and tensors of its own that kernels run on.
#pragma once

#include <hxrt/plugin_api.h>

#include <cstdint>
#include <string>
#include <vector>

#include "direct_plugin.hpp"

namespace opencl_test {

using hxrt_test::Attributes;
using hxrt_test::Outcome;
using hxrt_test::RegisteredKernel;

inline constexpr char kLibrary[] = "libhx_opencl.so";
using DirectPlugin = hxrt_test::DirectPluginOf<kLibrary>;

// One buffer of device memory, freed at the end of its scope.
class Buffer {
 public:
  Buffer(const DirectPlugin& plugin, hx_device* device, size_t size);
  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  hx_buffer* handle() const { return handle_; }

  void write(uint64_t offset, const void* data, size_t size) const;
  void read(uint64_t offset, void* data, size_t size) const;
  template <class T>
  std::vector<T> read_elements(uint64_t offset, size_t count) const {
    std::vector<T> values(count);
    read(offset, values.data(), count * sizeof(T));
    return values;
  }

 private:
  const DirectPlugin& plugin_;
  hx_device* device_;
  size_t size_;
  hx_buffer* handle_ = nullptr;
};

// A tensor in a Buffer at a byte offset, with its shape and strides (dense unless given).
struct Tensor {
  Tensor(const Buffer& buffer, uint64_t byte_offset, int32_t dtype, std::vector<int64_t> shape,
         std::vector<int64_t> strides = {});
  hx_tensor_view view(hx_device* device) const;

  const Buffer* buffer;
  uint64_t byte_offset;
  int32_t dtype;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;
};

// Runs the registered kernel of `op` once as the core would: create with `attributes` and
// the views' dtypes, compute (on `stream`, then synchronised, or with no stream; with no
// attributes when the kernel has a create), destroy.
Outcome run_kernel(const DirectPlugin& plugin, const std::string& op,
                   const std::vector<Tensor>& inputs, const std::vector<Tensor>& outputs,
                   const Attributes& attributes = {}, hx_stream* stream = nullptr);

// Each of `got` within 1e-5 (relative and absolute) of `expected`, NaN where it is NaN.
void check_close(const std::vector<float>& got, const std::vector<float>& expected);

}  // namespace opencl_test
