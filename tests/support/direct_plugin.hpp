// Catch2 helpers over PluginHost (plugin_host.hpp) for the direct-plugin tests of the sim, CPU,
// CUDA and OpenCL plugins: a plugin from the build's plugin folder, buffers and copies that
// fail the test when the plugin refuses them, tensor views at byte offsets, and kernel
// instances made, checked, computed and destroyed by hand, for what the public API never does
// on purpose (handles that were never created, offsets past a buffer's end, operands on the
// host).
#pragma once

#include <hxrt/plugin_api.h>

#include <cstdint>
#include <string>
#include <vector>

#include "plugin_host.hpp"

namespace hxrt_test {

// Requires `outcome` to be a success, printing its message when it is not.
void require_ok(const Outcome& outcome);

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

class DirectPlugin : public PluginHost {
 public:
  // `library`: a file name in the build's plugin folder.
  explicit DirectPlugin(const std::string& library, const std::string& options = "{}",
                        uint32_t core_major = HX_ABI_VERSION_MAJOR,
                        uint32_t core_minor = HX_ABI_VERSION_MINOR);

  hx_device_properties properties(hx_device* device) const;
  hx_buffer* allocate(hx_device* device, size_t size, size_t alignment) const;
  void upload(hx_device* device, hx_buffer* buffer, uint64_t offset,
              const std::vector<float>& values) const;
  std::vector<float> download(hx_device* device, const hx_buffer* buffer, uint64_t offset,
                              size_t count) const;
};

// A DirectPlugin always of `library`, for the tests of one plugin. `library` must be an inline
// variable (`inline constexpr char kLibrary[] = "libhx_x.so";`), so that every file sees one
// type.
template <const char* library>
class DirectPluginOf : public DirectPlugin {
 public:
  explicit DirectPluginOf(const std::string& options = "{}",
                          uint32_t core_major = HX_ABI_VERSION_MAJOR)
      : DirectPlugin(library, options, core_major) {}
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

}  // namespace hxrt_test
