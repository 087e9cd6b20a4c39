// The CUDA plugin's kernels called through what it registered, as the core calls them: kernel
// instances (create once, compute many times, destroy), declines with their reasons, tensors
// at byte offsets inside shared buffers, and broadcast inputs with stride 0. The create and
// check functions run on any machine; compute needs a GPU.
#include <hxrt/plugin_vocabulary.h>

#include <catch2/catch.hpp>

#include <dlfcn.h>

#include <cmath>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "plugin_direct.hpp"

using Catch::Matchers::Contains;
using cuda_direct::Attributes;
using cuda_direct::DirectPlugin;
using cuda_direct::Outcome;
using cuda_direct::RegisteredKernel;
using cuda_direct::require_ok;

namespace {

// One tensor of a direct call: its shape and strides live here, for the view to borrow.
struct Tensor {
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;  // in elements; empty: dense
  uint64_t byte_offset = 0;
  int32_t dtype = HX_DTYPE_F32;

  hx_tensor_view view(hx_buffer* buffer, hx_device* device) {
    if (strides.empty()) {
      strides.assign(shape.size(), 1);
      for (size_t d = shape.size(); d-- > 1;) strides[d - 1] = strides[d] * shape[d];
    }
    return {HX_TENSOR_VIEW_STRUCT_SIZE,
            nullptr,
            buffer,
            buffer == nullptr ? 0 : byte_offset,
            dtype,
            static_cast<int32_t>(shape.size()),
            shape.data(),
            strides.data(),
            buffer == nullptr ? nullptr : device};
  }
};

// An instance made by `kernel`'s create for float32 inputs and outputs, destroyed at scope end.
class Instance {
 public:
  Instance(const RegisteredKernel& kernel, const Attributes& attributes, size_t num_inputs,
           int32_t output_dtype = HX_DTYPE_F32)
      : kernel_(kernel) {
    const std::vector<int32_t> inputs(num_inputs, HX_DTYPE_F32);
    const hx_kernel_create_args args = {HX_KERNEL_CREATE_ARGS_STRUCT_SIZE,
                                        nullptr,
                                        attributes.context(),
                                        nullptr,
                                        num_inputs,
                                        inputs.data(),
                                        1,
                                        &output_dtype,
                                        kernel.def.user_data};
    REQUIRE(kernel.def.create != nullptr);
    outcome_ = DirectPlugin::outcome(kernel.def.create(&args, &instance_));
  }
  ~Instance() { kernel_.def.destroy(instance_, kernel_.def.user_data); }
  Instance(const Instance&) = delete;
  Instance& operator=(const Instance&) = delete;

  const Outcome& outcome() const { return outcome_; }
  hx_kernel_instance* get() const { return instance_; }

 private:
  const RegisteredKernel& kernel_;
  hx_kernel_instance* instance_ = nullptr;
  Outcome outcome_;
};

// Calls check (when `buffer` is NULL) or compute of `kernel` with these tensors, in `buffer`.
Outcome call(const RegisteredKernel& kernel, hx_device* device, hx_stream* stream,
             hx_buffer* buffer, std::vector<Tensor>& inputs, Tensor& output,
             hx_kernel_instance* instance) {
  std::vector<hx_tensor_view> input_views;
  for (Tensor& input : inputs) input_views.push_back(input.view(buffer, device));
  const hx_tensor_view output_view = output.view(buffer, device);
  const Attributes no_attributes;
  const hx_kernel_args args = {HX_KERNEL_ARGS_STRUCT_SIZE,
                               nullptr,
                               no_attributes.context(),
                               device,
                               stream,
                               input_views.size(),
                               input_views.data(),
                               1,
                               &output_view,
                               kernel.def.user_data,
                               instance,
                               nullptr,
                               nullptr};
  return DirectPlugin::outcome(buffer == nullptr ? kernel.def.check(&args)
                                                 : kernel.def.compute(&args));
}

bool cublas_is_loaded() {
  void* library = dlopen(HXRT_CUBLAS_SONAME, RTLD_NOW | RTLD_NOLOAD);
  if (library == nullptr) return false;
  dlclose(library);
  return true;
}

// A device buffer of `bytes` holding `host` at byte offsets, copied in and out synchronously.
struct DeviceBuffer {
  DeviceBuffer(const DirectPlugin& plugin, hx_device* device, size_t bytes)
      : api(plugin.api()), device(device), bytes(bytes) {
    require_ok(DirectPlugin::outcome(api.allocate(device, bytes, 256, &buffer)));
    require_ok(DirectPlugin::outcome(api.memset(device, nullptr, buffer, 0, 0, bytes)));
  }
  ~DeviceBuffer() { api.deallocate(device, buffer, bytes); }
  void write(uint64_t offset, const std::vector<float>& values) {
    require_ok(DirectPlugin::outcome(api.copy_host_to_device(
        device, nullptr, buffer, offset, values.data(), values.size() * sizeof(float))));
  }
  std::vector<float> read(uint64_t offset, size_t count) {
    std::vector<float> values(count);
    require_ok(DirectPlugin::outcome(api.copy_device_to_host(device, nullptr, values.data(), buffer,
                                                             offset, count * sizeof(float))));
    return values;
  }
  const hx_plugin_api& api;
  hx_device* device;
  size_t bytes;
  hx_buffer* buffer = nullptr;
};

}  // namespace

TEST_CASE("Directly: loading the CUDA plugin does not load cuBLAS, a MatMul instance does",
          "[cuda][kernels][direct]") {
  // Another test case in this process may have loaded cuBLAS already (plugin_errors_test.cpp
  // names cuBLAS statuses through it, and Catch2's order of test cases across files is the
  // build's); only a process that had not can see that loading the plugin does not.
  const bool before = cublas_is_loaded();
  const DirectPlugin plugin;
  require_ok(plugin.init_outcome());
  if (!before) CHECK_FALSE(cublas_is_loaded());
  Outcome counted;
  plugin.device_count(&counted);
  if (!before) CHECK_FALSE(cublas_is_loaded());
  const Instance matmul(plugin.kernel("MatMul"), Attributes{}, 2);
  require_ok(matmul.outcome());
  CHECK(matmul.get() != nullptr);
  CHECK(cublas_is_loaded());
}

TEST_CASE("Directly: the kernels with attributes are made once per combination",
          "[cuda][kernels][direct]") {
  const DirectPlugin plugin;
  require_ok(plugin.init_outcome());
  // Every op but these reads attributes, or picks its kernel by dtype, at create.
  const std::set<std::string> without_create = {
      "Add", "Sub", "Mul", "Div", "Pow", "Min", "Max", "Equal", "Less", "Greater",
      "LessOrEqual", "GreaterOrEqual", "Relu", "AddN", "Identity", "Reshape", "Flatten",
      "Squeeze", "Unsqueeze", "Expand"};
  const std::set<std::string> with_check = {
      "MatMul",        "Pow",         "Min",           "Max",
      "Conv",          "FusedConv",   "MaxPool",       "AveragePool",
      "GlobalMaxPool", "GlobalAveragePool", "BatchNormalization", "FusedGemm", "MatMulBias"};
  for (const RegisteredKernel& kernel : plugin.kernels()) {
    INFO(kernel.op);
    const bool has_attributes = without_create.count(kernel.op) == 0;
    CHECK((kernel.def.create != nullptr) == has_attributes);
    CHECK((kernel.def.destroy != nullptr) == has_attributes);
    CHECK((kernel.def.check != nullptr) == (with_check.count(kernel.op) == 1));
  }
  // destroy accepts NULL, as every destroy does.
  const RegisteredKernel& sum = plugin.kernel("Sum");
  sum.def.destroy(nullptr, sum.def.user_data);
}

TEST_CASE("Directly: create reads the attributes and declines what the GPU cannot run",
          "[cuda][kernels][direct]") {
  const DirectPlugin plugin;
  require_ok(plugin.init_outcome());
  {
    const Instance to_int(plugin.kernel("Cast"), Attributes{}, 1, HX_DTYPE_I32);
    CHECK(to_int.outcome().code == HX_UNIMPLEMENTED);
    CHECK_THAT(to_int.outcome().message, Contains("Cast on GPU: no float32 to int32 kernel"));
    const Instance to_half(plugin.kernel("Cast"), Attributes{}, 1, HX_DTYPE_F16);
    require_ok(to_half.outcome());
  }
  {
    const Instance no_value(plugin.kernel("Fill"), Attributes{}, 0);
    CHECK(no_value.outcome().code == HX_INVALID_ARGUMENT);
    CHECK_THAT(no_value.outcome().message, Contains("missing required attribute 'value'"));
    Attributes value;
    value.floats["value"] = 2.5;
    require_ok(Instance(plugin.kernel("Fill"), value, 0).outcome());
  }
  {
    Attributes too_many;
    too_many.int_lists["axes"] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    const Instance sum(plugin.kernel("Sum"), too_many, 1);
    CHECK(sum.outcome().code == HX_INVALID_ARGUMENT);
    CHECK_THAT(sum.outcome().message, Contains("Sum: 9 axes given"));
  }
}

TEST_CASE("Directly: create declines what the new kernels cannot run, and bounds lists",
          "[cuda][kernels][direct]") {
  const DirectPlugin plugin;
  require_ok(plugin.init_outcome());
  {
    // Instance makes every input float32: float32 indices, which Gather does not take.
    const Instance gather(plugin.kernel("Gather"), Attributes{}, 2);
    CHECK(gather.outcome().code == HX_UNIMPLEMENTED);
    CHECK_THAT(gather.outcome().message,
               Contains("Gather on GPU: no kernel for float32 data with float32 indices"));
  }
  {
    Attributes too_many;
    too_many.int_lists["perm"] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    const Instance transpose(plugin.kernel("Transpose"), too_many, 1);
    CHECK(transpose.outcome().code == HX_INVALID_ARGUMENT);
    CHECK_THAT(transpose.outcome().message, Contains("Transpose: perm has 9 entries"));
  }
  {
    Attributes mismatched;
    mismatched.int_lists["starts"] = {0, 1};
    mismatched.int_lists["ends"] = {2, 3};
    mismatched.int_lists["steps"] = {1};
    const Instance slice(plugin.kernel("Slice"), mismatched, 1);
    CHECK(slice.outcome().code == HX_INVALID_ARGUMENT);
    CHECK_THAT(slice.outcome().message, Contains("Slice: 2 starts, 2 axes and 1 steps differ"));
  }
  {
    Attributes too_many;
    too_many.int_lists["axes"] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    const Instance reduce(plugin.kernel("ReduceMean"), too_many, 1);
    CHECK(reduce.outcome().code == HX_INVALID_ARGUMENT);
    CHECK_THAT(reduce.outcome().message, Contains("ReduceMean: 9 axes given"));
  }
  for (const char* op : {"Exp", "Gelu", "Softmax", "ReduceL2", "Concat"}) {
    INFO(op);
    require_ok(Instance(plugin.kernel(op), Attributes{}, 1).outcome());
  }
}

TEST_CASE("Directly: Pow's check declines another exponent dtype, Min's and Max's other than "
          "two inputs",
          "[cuda][kernels][direct]") {
  const DirectPlugin plugin;
  require_ok(plugin.init_outcome());
  const RegisteredKernel& pow = plugin.kernel("Pow");
  std::vector<Tensor> same = {{{3}, {}, 0}, {{3}, {}, 0}};
  Tensor output{{3}, {}, 0};
  require_ok(call(pow, nullptr, nullptr, nullptr, same, output, nullptr));
  std::vector<Tensor> int_exponent = {{{3}, {}, 0}, {{3}, {}, 0, HX_DTYPE_I32}};
  const Outcome declined = call(pow, nullptr, nullptr, nullptr, int_exponent, output, nullptr);
  CHECK(declined.code == HX_UNIMPLEMENTED);
  CHECK_THAT(declined.message, Contains("CUDA's kernel takes an exponent of the base's dtype "
                                        "float32; this call's is int32"));
  for (const char* op : {"Min", "Max"}) {
    INFO(op);
    const RegisteredKernel& kernel = plugin.kernel(op);
    require_ok(call(kernel, nullptr, nullptr, nullptr, same, output, nullptr));
    std::vector<Tensor> three = {{{3}, {}, 0}, {{3}, {}, 0}, {{3}, {}, 0}};
    const Outcome variadic = call(kernel, nullptr, nullptr, nullptr, three, output, nullptr);
    CHECK(variadic.code == HX_UNIMPLEMENTED);
    CHECK_THAT(variadic.message, Contains("CUDA's kernel takes two inputs; this call has 3"));
  }
}

TEST_CASE("Directly: MatMul's check declines extents past cuBLAS's 32-bit limit",
          "[cuda][kernels][direct]") {
  const DirectPlugin plugin;
  require_ok(plugin.init_outcome());
  const RegisteredKernel& matmul = plugin.kernel("MatMul");
  const Instance instance(matmul, Attributes{}, 2);
  require_ok(instance.outcome());
  const int64_t huge = int64_t{1} << 31;
  std::vector<Tensor> inputs = {{{huge, 2}, {}, 0}, {{2, 2}, {}, 0}};
  Tensor output{{huge, 2}, {}, 0};
  const Outcome declined = call(matmul, nullptr, nullptr, nullptr, inputs, output, instance.get());
  CHECK(declined.code == HX_UNIMPLEMENTED);
  CHECK_THAT(declined.message, Contains("MatMul on GPU: extent 2147483648 exceeds cuBLAS's "
                                        "32-bit limit"));
  std::vector<Tensor> small = {{{2, 2}, {}, 0}, {{2, 2}, {}, 0}};
  Tensor small_output{{2, 2}, {}, 0};
  require_ok(call(matmul, nullptr, nullptr, nullptr, small, small_output, instance.get()));
}

TEST_CASE("Directly: copies and memset reach byte offsets inside one buffer",
          "[cuda][kernels][direct][gpu]") {
  const DirectPlugin plugin;
  require_ok(plugin.init_outcome());
  CUDA_DIRECT_REQUIRE_GPU(plugin);
  hx_device* device = plugin.device(0);
  const hx_plugin_api& api = plugin.api();
  DeviceBuffer memory(plugin, device, 4096);
  memory.write(256, {1, 2, 3, 4});
  require_ok(DirectPlugin::outcome(api.copy_device_to_device(
      device, nullptr, memory.buffer, 1024, device, memory.buffer, 260, 3 * sizeof(float))));
  require_ok(DirectPlugin::outcome(api.memset(device, nullptr, memory.buffer, 2048, 0xff, 8)));
  CHECK(memory.read(256, 4) == std::vector<float>{1, 2, 3, 4});
  CHECK(memory.read(1024, 4) == std::vector<float>{2, 3, 4, 0});
  const std::vector<float> set = memory.read(2044, 4);
  CHECK(set[0] == 0);
  CHECK(std::isnan(set[1]));  // 0xffffffff is a NaN
  CHECK(std::isnan(set[2]));
  CHECK(set[3] == 0);
  CHECK(memory.read(0, 4) == std::vector<float>{0, 0, 0, 0});
}

TEST_CASE("Directly: Add reads broadcast inputs (stride 0) at byte offsets",
          "[cuda][kernels][direct][gpu]") {
  const DirectPlugin plugin;
  require_ok(plugin.init_outcome());
  CUDA_DIRECT_REQUIRE_GPU(plugin);
  hx_device* device = plugin.device(0);
  const RegisteredKernel& add = plugin.kernel("Add");
  DeviceBuffer memory(plugin, device, 4096);
  memory.write(256, {1, 2, 3, 4, 5, 6});
  memory.write(512, {10, 20, 30});
  {
    INFO("[2,3] + [3]: the row repeats down the rows");
    std::vector<Tensor> inputs = {{{2, 3}, {}, 256}, {{2, 3}, {0, 1}, 512}};
    Tensor output{{2, 3}, {}, 768};
    require_ok(call(add, device, nullptr, memory.buffer, inputs, output, nullptr));
    CHECK(memory.read(768, 6) == std::vector<float>{11, 22, 33, 14, 25, 36});
  }
  {
    INFO("[2,1] + [1,3]: a column against a row");
    std::vector<Tensor> inputs = {{{2, 3}, {1, 0}, 256}, {{2, 3}, {0, 1}, 512}};
    Tensor output{{2, 3}, {}, 1024};
    require_ok(call(add, device, nullptr, memory.buffer, inputs, output, nullptr));
    CHECK(memory.read(1024, 6) == std::vector<float>{11, 21, 31, 12, 22, 32});
  }
  {
    INFO("a scalar + [4]");
    std::vector<Tensor> inputs = {{{4}, {0}, 512}, {{4}, {}, 256}};
    Tensor output{{4}, {}, 1280};
    require_ok(call(add, device, nullptr, memory.buffer, inputs, output, nullptr));
    CHECK(memory.read(1280, 4) == std::vector<float>{11, 12, 13, 14});
  }
}

TEST_CASE("Directly: one MatMul instance, made with transpose_a, serves calls on two streams",
          "[cuda][kernels][direct][gpu]") {
  const DirectPlugin plugin;
  require_ok(plugin.init_outcome());
  CUDA_DIRECT_REQUIRE_GPU(plugin);
  hx_device* device = plugin.device(0);
  const hx_plugin_api& api = plugin.api();
  const RegisteredKernel& matmul = plugin.kernel("MatMul");
  Attributes transpose_a;
  transpose_a.bools["transpose_a"] = true;
  const Instance instance(matmul, transpose_a, 2);
  require_ok(instance.outcome());
  DeviceBuffer memory(plugin, device, 4096);
  // a is stored 3x2 and used as its transpose, 2x3; b is 3x2.
  memory.write(256, {1, 4, 2, 5, 3, 6});
  memory.write(512, {7, 8, 9, 10, 11, 12});
  hx_stream* streams[2] = {};
  for (hx_stream*& stream : streams) {
    require_ok(DirectPlugin::outcome(api.streams->create(device, &stream)));
  }
  for (int i = 0; i < 2; ++i) {
    std::vector<Tensor> inputs = {{{3, 2}, {}, 256}, {{3, 2}, {}, 512}};
    Tensor output{{2, 2}, {}, static_cast<uint64_t>(1024 + 256 * i)};
    require_ok(call(matmul, device, streams[i], memory.buffer, inputs, output, instance.get()));
  }
  for (hx_stream* stream : streams) {
    require_ok(DirectPlugin::outcome(api.streams->synchronize(device, stream)));
    api.streams->destroy(device, stream);
  }
  // [[1,2,3],[4,5,6]] x [[7,8],[9,10],[11,12]]
  CHECK(memory.read(1024, 4) == std::vector<float>{58, 64, 139, 154});
  CHECK(memory.read(1280, 4) == std::vector<float>{58, 64, 139, 154});
  CHECK(plugin.warnings().empty());
}
