// The plugin's identity, options, and each device's properties against what OpenCL itself
// says about that device.
#include <catch2/catch.hpp>

#include <CL/cl.h>

#include <hxrt/plugin_vocabulary.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "opencl_harness.hpp"
#include "abi_text.hpp"

namespace opencl_test {
namespace {

// Every device of every platform, in the order the plugin numbers them.
std::vector<cl_device_id> opencl_devices() {
  cl_uint platform_count = 0;
  if (clGetPlatformIDs(0, nullptr, &platform_count) != CL_SUCCESS) return {};
  std::vector<cl_platform_id> platforms(platform_count);
  REQUIRE(clGetPlatformIDs(platform_count, platforms.data(), nullptr) == CL_SUCCESS);
  std::vector<cl_device_id> devices;
  for (cl_platform_id platform : platforms) {
    cl_uint count = 0;
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &count) != CL_SUCCESS) continue;
    std::vector<cl_device_id> found(count);
    REQUIRE(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, count, found.data(), nullptr) ==
            CL_SUCCESS);
    devices.insert(devices.end(), found.begin(), found.end());
  }
  return devices;
}

template <class T>
T device_info(cl_device_id device, cl_device_info what) {
  T value{};
  REQUIRE(clGetDeviceInfo(device, what, sizeof value, &value, nullptr) == CL_SUCCESS);
  return value;
}

std::string device_text(cl_device_id device, cl_device_info what) {
  char text[1024] = {};
  REQUIRE(clGetDeviceInfo(device, what, sizeof text - 1, text, nullptr) == CL_SUCCESS);
  return text;
}

TEST_CASE("The OpenCL plugin names itself and offers streams and events", "[opencl]") {
  const DirectPlugin plugin;
  REQUIRE(plugin.init_outcome().code == HX_OK);
  const hx_plugin_api& api = plugin.api();
  CHECK(std::string(api.name) == "opencl");
  CHECK(std::string(api.device_type) == "OPENCL");
  CHECK(api.abi_major == HX_ABI_VERSION_MAJOR);
  CHECK(hx_plugin_api_missing_function(&api) == nullptr);
  CHECK(hx_plugin_api_short_group(&api) == nullptr);
  CHECK(api.streams != nullptr);
  CHECK(api.events != nullptr);
  CHECK(api.host_memory == nullptr);
  // OpenCL 1.2 cannot tell free memory: shown as unknown.
  CHECK(api.memory_info == nullptr);
}

TEST_CASE("The OpenCL plugin takes no options", "[opencl]") {
  const DirectPlugin plugin(R"({"platform": "PoCL"})");
  CHECK(plugin.init_outcome().code == HX_INVALID_ARGUMENT);
  CHECK_THAT(plugin.init_outcome().message, Catch::Contains("unknown option 'platform'"));
}

TEST_CASE("The OpenCL plugin refuses a core of another major version", "[opencl]") {
  const DirectPlugin plugin("{}", HX_ABI_VERSION_MAJOR + 1);
  CHECK(plugin.init_outcome().code == HX_FAILED_PRECONDITION);
  CHECK_THAT(plugin.init_outcome().message, Catch::Contains("speaks ABI " + abi_text() + ", core speaks " +
                                             abi_text(HX_ABI_VERSION_MAJOR + 1)));
}

TEST_CASE("Each OpenCL device describes itself as OpenCL reports it", "[opencl]") {
  const std::vector<cl_device_id> expected = opencl_devices();
  const DirectPlugin plugin;
  REQUIRE(plugin.init_outcome().code == HX_OK);
  int32_t count = -1;
  REQUIRE(DirectPlugin::outcome(plugin.api().device_count(plugin.api().plugin, &count)).code ==
          HX_OK);
  REQUIRE(count == static_cast<int32_t>(expected.size()));
  REQUIRE(count >= 1);
  for (int32_t ordinal = 0; ordinal < count; ++ordinal) {
    const cl_device_id cl_device = expected[static_cast<size_t>(ordinal)];
    hx_device_properties props{};
    props.struct_size = HX_DEVICE_PROPERTIES_STRUCT_SIZE;
    REQUIRE(DirectPlugin::outcome(
                plugin.api().device_properties(plugin.device(ordinal), &props))
                .code == HX_OK);
    INFO("device " << ordinal << ": " << props.name);
    CHECK(std::string(props.name) == device_text(cl_device, CL_DEVICE_NAME));
    CHECK(std::string(props.vendor) == device_text(cl_device, CL_DEVICE_VENDOR));
    CHECK(std::string(props.arch) == device_text(cl_device, CL_DEVICE_VERSION));
    CHECK(props.bus_id == nullptr);
    CHECK(props.memory_total == device_info<cl_ulong>(cl_device, CL_DEVICE_GLOBAL_MEM_SIZE));
    CHECK(props.max_allocation ==
          std::min(device_info<cl_ulong>(cl_device, CL_DEVICE_MAX_MEM_ALLOC_SIZE),
                   props.memory_total));
    CHECK(props.compute_units ==
          static_cast<int32_t>(device_info<cl_uint>(cl_device, CL_DEVICE_MAX_COMPUTE_UNITS)));
    CHECK(props.alignment == device_info<cl_uint>(cl_device, CL_DEVICE_MEM_BASE_ADDR_ALIGN) / 8);
    CHECK((props.alignment & (props.alignment - 1)) == 0);
    const bool cpu = (device_info<cl_device_type>(cl_device, CL_DEVICE_TYPE) &
                      CL_DEVICE_TYPE_CPU) != 0;
    const bool unified = device_info<cl_bool>(cl_device, CL_DEVICE_HOST_UNIFIED_MEMORY);
    CHECK(props.memory_kind ==
          (cpu || unified ? HX_MEMORY_HOST_VISIBLE : HX_MEMORY_DEVICE));
    CHECK(props.placement_class ==
          (cpu ? HX_PLACEMENT_HOST_ACCELERATOR : HX_PLACEMENT_DISCRETE_ACCELERATOR));
  }
}

TEST_CASE("OpenCL device properties stop at the struct_size the core gives", "[opencl]") {
  const DirectPlugin plugin;
  REQUIRE(plugin.init_outcome().code == HX_OK);
  hx_device_properties props;
  std::memset(&props, 0xA5, sizeof props);
  props.struct_size = HX_STRUCT_SIZE(hx_device_properties, arch);  // a core that knows less
  REQUIRE(DirectPlugin::outcome(plugin.api().device_properties(plugin.device(), &props)).code ==
          HX_OK);
  CHECK(props.arch != nullptr);
  const auto* bytes = reinterpret_cast<const unsigned char*>(&props);
  for (size_t at = props.struct_size; at < sizeof props; ++at) {
    INFO("byte " << at);
    CHECK(bytes[at] == 0xA5);
  }
}

TEST_CASE("An OpenCL device that does not exist is OUT_OF_RANGE", "[opencl]") {
  const DirectPlugin plugin;
  REQUIRE(plugin.init_outcome().code == HX_OK);
  hx_device* device = nullptr;
  for (int32_t ordinal : {-1, 4096}) {
    const Outcome got =
        DirectPlugin::outcome(plugin.api().device_get(plugin.api().plugin, ordinal, &device));
    CHECK(got.code == HX_OUT_OF_RANGE);
    CHECK_THAT(got.message, Catch::Contains("no device " + std::to_string(ordinal)));
  }
}

TEST_CASE("The OpenCL plugin registers float32 compute and moves elements of every dtype",
          "[opencl]") {
  const DirectPlugin plugin;
  REQUIRE(plugin.init_outcome().code == HX_OK);
  // The ops that move elements whatever they are, and Gather, of 4- and 8-byte elements; the
  // rest computes in float32.
  const std::vector<std::string> moving = {"Identity",  "Reshape", "Flatten", "Squeeze",
                                           "Unsqueeze", "Transpose", "Slice", "Expand",
                                           "Concat"};
  std::vector<std::string> ops;
  for (const RegisteredKernel& kernel : plugin.kernels()) {
    ops.push_back(kernel.op);
    INFO(kernel.op);
    if (std::find(moving.begin(), moving.end(), kernel.op) != moving.end()) {
      CHECK(kernel.dtypes.size() == size_t{HX_DTYPE_F8E5M2FNUZ});  // every dtype, 1 to 17
    } else if (kernel.op == "Gather") {
      CHECK_THAT(kernel.dtypes,
                 Catch::UnorderedEquals(std::vector<int32_t>{HX_DTYPE_F32, HX_DTYPE_F64,
                                                             HX_DTYPE_I32, HX_DTYPE_I64,
                                                             HX_DTYPE_U32, HX_DTYPE_U64}));
    } else {
      CHECK(kernel.dtypes == std::vector<int32_t>{HX_DTYPE_F32});
    }
    CHECK((kernel.def.create == nullptr) == (kernel.def.destroy == nullptr));
  }
  std::vector<std::string> expected = {
      "MatMul", "Gemm", "Add", "Sub", "Mul", "Div", "Pow", "Min", "Max", "Equal", "Less", "Greater",
      "LessOrEqual", "GreaterOrEqual", "Relu", "Exp", "Log", "Sqrt", "Neg", "Abs", "Reciprocal",
      "Erf", "Tanh", "Sigmoid", "Floor", "Ceil", "Round", "Sign", "LeakyRelu", "HardSigmoid",
      "HardSwish", "Gelu", "LayerNormalization", "Softmax", "LogSoftmax", "Sum", "ReduceSum", "ReduceMean",
      "ReduceMax", "ReduceMin", "ReduceL2", "AddN", "Fill", "Cast", "Gather"};
  expected.insert(expected.end(), moving.begin(), moving.end());
  CHECK_THAT(ops, Catch::UnorderedEquals(expected));
  // Cast converts float32 to the dtypes program.cl has a kernel for, bfloat16 not among them.
  CHECK_THAT(plugin.kernel("Cast").output_dtypes,
             Catch::UnorderedEquals(std::vector<int32_t>{HX_DTYPE_F32, HX_DTYPE_F64,
                                                         HX_DTYPE_F16, HX_DTYPE_I32,
                                                         HX_DTYPE_I64, HX_DTYPE_BOOL}));
}

}  // namespace
}  // namespace opencl_test
