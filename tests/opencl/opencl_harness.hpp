// The OpenCL plugin driven through its function table by a small fake core (statuses,
// logging, kernel registration and attributes of its own), so that devices, memory, streams
// and every kernel are tested without the core.
#pragma once

#include <hxrt/plugin_api.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace opencl_test {

// What a table call returned, its status already freed.
struct Outcome {
  int32_t code = HX_OK;
  std::string message;
};

// The attributes of one call, as the fake core's getters read them; absent ones are NOT_FOUND.
struct Attributes {
  std::map<std::string, bool> bools;
  std::map<std::string, double> floats;
  std::map<std::string, std::vector<int64_t>> int_lists;
};

struct RegisteredKernel {
  std::string op;
  std::vector<int32_t> dtypes;
  std::vector<int32_t> output_dtypes;
  hx_kernel_def def{};  // pointers in it are the plugin's, valid while it is loaded
};

class DirectPlugin {
 public:
  // Loads libhx_opencl.so from the build tree and inits it with `options` as a core of ABI
  // major `core_major` would. When init fails, init_outcome() says why and api() must not be
  // used.
  explicit DirectPlugin(const std::string& options = "{}",
                        uint32_t core_major = HX_ABI_VERSION_MAJOR);
  ~DirectPlugin();
  DirectPlugin(const DirectPlugin&) = delete;
  DirectPlugin& operator=(const DirectPlugin&) = delete;

  const Outcome& init_outcome() const { return init_outcome_; }
  const hx_plugin_api& api() const { return *api_; }
  hx_device* device(int32_t ordinal = 0) const;
  const std::vector<RegisteredKernel>& kernels() const { return kernels_; }
  const RegisteredKernel& kernel(const std::string& op) const;
  const std::vector<std::string>& warnings() const { return warnings_; }

  static Outcome outcome(hx_status* status);

 private:
  friend struct FakeCore;
  void* library_ = nullptr;
  const hx_plugin_api* api_ = nullptr;
  Outcome init_outcome_;
  std::vector<RegisteredKernel> kernels_;
  std::vector<std::string> warnings_;
};

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
// the views' dtypes, compute (on `stream`, then synchronised, or with no stream), destroy.
Outcome run_kernel(const DirectPlugin& plugin, const std::string& op,
                   const std::vector<Tensor>& inputs, const std::vector<Tensor>& outputs,
                   const Attributes& attributes = {}, hx_stream* stream = nullptr);

}  // namespace opencl_test
