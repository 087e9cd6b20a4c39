// A plugin (libhx_sim.so, libhx_cpu.so) driven through its function table by a small fake core,
// for what the public API never does on purpose: handles that were never created, offsets past
// a buffer's end, kernels given operands on the host, kernel instances made and destroyed by
// hand. The CPU plugin's tests use it too (tests/cpu/CMakeLists.txt).
#pragma once

#include <hxrt/plugin_api.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "fake_core.hpp"

namespace plugin_direct {

using hxrt_test::Outcome;

// The attributes a kernel's create reads (the fake core's context points at one).
struct Attributes {
  std::map<std::string, bool> bools;
  std::map<std::string, double> floats;
  std::map<std::string, std::vector<int64_t>> int_lists;
};

struct RegisteredKernel {
  std::string op;
  std::vector<int32_t> dtypes;
  hx_kernel_def def;  // its op and dtypes point into the plugin, valid while it is loaded
};

// A float32 (or `dtype`) view of `buffer` at `byte_offset`, dense row-major unless `strides`
// are given.
struct View {
  View(hx_buffer* buffer, uint64_t byte_offset, hx_device* device, std::vector<int64_t> shape,
       std::vector<int64_t> strides = {}, int32_t dtype = HX_DTYPE_F32);
  View(const View& other);
  View& operator=(const View&) = delete;

  std::vector<int64_t> shape;
  std::vector<int64_t> strides;
  hx_tensor_view view;
};

class DirectPlugin {
 public:
  // Loads `library` (a file name in the build's plugin folder, its own reference) and inits it
  // with `options` as a core of ABI major `core_major` would. When init fails, init_outcome()
  // says why and api() must not be used.
  DirectPlugin(const std::string& library, const std::string& options,
               uint32_t core_major = HX_ABI_VERSION_MAJOR);
  // Shuts the plugin down (after a successful init) and drops the library reference.
  ~DirectPlugin();
  DirectPlugin(const DirectPlugin&) = delete;
  DirectPlugin& operator=(const DirectPlugin&) = delete;

  const Outcome& init_outcome() const { return init_outcome_; }
  const hx_plugin_api& api() const { return *api_; }
  hx_device* device(int32_t ordinal) const;
  hx_device_properties properties(hx_device* device) const;
  // Takes ownership of `status` and frees it.
  static Outcome outcome(hx_status* status);
  // A symbol the library exports; fails the test when there is none.
  void* symbol(const char* name) const;

  hx_buffer* allocate(hx_device* device, size_t size, size_t alignment) const;
  void upload(hx_device* device, hx_buffer* buffer, uint64_t offset,
              const std::vector<float>& values) const;
  std::vector<float> download(hx_device* device, const hx_buffer* buffer, uint64_t offset,
                              size_t count) const;

  const std::vector<RegisteredKernel>& kernels() const { return kernels_; }
  const RegisteredKernel& kernel(const std::string& op) const;
  // Lines the plugin logged at warning level or above.
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  friend struct FakeCore;
  void* library_ = nullptr;
  const hx_plugin_api* api_ = nullptr;
  Outcome init_outcome_;
  std::vector<RegisteredKernel> kernels_;
  std::vector<std::string> warnings_;
};

// One instance of `kernel` for the given dtypes and attributes, made by its create (if it has
// one) and destroyed with the object.
class KernelInstance {
 public:
  KernelInstance(const RegisteredKernel& kernel, hx_device* device,
                 const std::vector<int32_t>& input_dtypes,
                 const std::vector<int32_t>& output_dtypes, const Attributes& attributes = {});
  ~KernelInstance();
  KernelInstance(const KernelInstance&) = delete;
  KernelInstance& operator=(const KernelInstance&) = delete;

  // What create returned (HX_OK for a kernel without create).
  const Outcome& created() const { return created_; }
  // check (HX_OK for a kernel without one) and compute of one call, with this instance. For a
  // kernel with create, the call's context has no attributes.
  Outcome check(hx_device* device, const std::vector<View>& inputs,
                const std::vector<View>& outputs);
  Outcome compute(hx_device* device, hx_stream* stream, const std::vector<View>& inputs,
                  const std::vector<View>& outputs);

 private:
  hx_kernel_args args(hx_device* device, hx_stream* stream,
                      std::vector<hx_tensor_view>& inputs,
                      std::vector<hx_tensor_view>& outputs);

  const RegisteredKernel& kernel_;
  Attributes attributes_;
  Outcome created_;
  hx_kernel_instance* instance_ = nullptr;
};

}  // namespace plugin_direct
