// The eager op path (Runtime::execute_multi) on the CPU plugin and two sim devices: each
// input chooses an op (one with kernels, or any name), its inputs (dtype, shape, device,
// contents), its attributes (names the ops read or any, of every attribute type, with
// extreme values) and the requested device and soft-placement mode. Shapes are small
// mostly, sometimes 0 or huge (2^31, 2^40, 2^62, INT64_MAX) to reach every size check.
//
// Oracle: every call either throws hxrt::Error or returns outputs that each hold exactly
// num_elements * dtype_size bytes (computed here without overflow) and copy that many bytes
// to the host, and no other count. Any other exception, a crash or a sanitizer report is a
// finding.
#include <fuzzer/FuzzedDataProvider.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "hxrt/runtime.hpp"

namespace {

// Each device's allocator takes at most this much, so that an op asking for more fails with
// OUT_OF_MEMORY in the runtime instead of tripping libFuzzer's malloc limit.
constexpr uint64_t kDeviceMemoryMiB = 64;
// Inputs larger than this are not filled: their sizes are for the checks only.
constexpr uint64_t kMaxInputBytes = uint64_t{1} << 16;

[[noreturn]] void finding(const std::string& what) {
  std::fprintf(stderr, "execute_fuzz: %s\n", what.c_str());
  std::abort();
}

hxrt::Runtime make_runtime() {
  hxrt::RuntimeOptions options;
  options.plugin_paths = {HXRT_FUZZ_PLUGIN_DIR "/libhx_cpu.so", HXRT_FUZZ_PLUGIN_DIR "/libhx_sim.so"};
  options.use_installed_plugins = false;
  options.plugin_options["sim"] =
      R"({"device_count": 2, "memory_mb": )" + std::to_string(kDeviceMemoryMiB) + "}";
  options.log_sink = [](hxrt::LogLevel, std::string_view) {};
  hxrt::Runtime runtime = hxrt::Runtime::create(options);
  hxrt::MemoryPolicy policy;
  policy.limit_mb = kDeviceMemoryMiB;
  runtime.set_memory_policy("CPU", policy);
  runtime.initialize();
  if (runtime.devices().size() != 3) finding("expected CPU:0, SIM:0 and SIM:1");
  return runtime;
}

hxrt::Runtime& runtime() {
  static hxrt::Runtime instance = make_runtime();
  return instance;
}

// Every op that has a kernel somewhere.
const std::vector<std::string>& ops_with_kernels() {
  static const std::vector<std::string> ops = [] {
    std::set<std::string> names;
    for (const hxrt::KernelInfo& kernel : runtime().kernels()) names.insert(kernel.op);
    return std::vector<std::string>(names.begin(), names.end());
  }();
  return ops;
}

// The attributes the core's ops read (core/src/ops), and names none reads.
const char* const kAttrNames[] = {"transpose_a", "transpose_b", "axes", "keep_dims", "dtype",
                                  "shape",       "value",       "scales", "sizes",   "mode",
                                  "T",           ""};
const char* const kDevices[] = {"CPU:0",  "/device:SIM:0", "/SIM:1", "/GPU:0", "SIM:7",
                                "/job:localhost/replica:0/task:0/device:CPU:0", "/SIM", "CPU"};

class CallBuilder {
 public:
  explicit CallBuilder(FuzzedDataProvider& input) : input_(input) {}

  int64_t extent() {
    switch (input_.ConsumeIntegralInRange(0, 15)) {
      case 0: return 0;
      case 1: return int64_t{1} << 31;
      case 2: return int64_t{1} << 40;
      case 3: return int64_t{1} << 62;
      case 4: return std::numeric_limits<int64_t>::max();
      case 5: return input_.ConsumeIntegralInRange<int64_t>(-2, 100);
      default: return input_.ConsumeIntegralInRange<int64_t>(1, 4);
    }
  }

  hxrt::DType dtype() {
    if (input_.ConsumeIntegralInRange(0, 31) == 0) {
      return static_cast<hxrt::DType>(input_.ConsumeIntegral<int32_t>());
    }
    return input_.PickValueInArray(hxrt::kAllDTypes);
  }

  std::vector<int64_t> dims() {
    const int rank = input_.ConsumeIntegralInRange(0, 31) == 0
                         ? input_.ConsumeIntegralInRange(5, 10)
                         : input_.ConsumeIntegralInRange(0, 4);
    std::vector<int64_t> out;
    for (int i = 0; i < rank; ++i) out.push_back(extent());
    return out;
  }

  std::string device() {
    switch (input_.ConsumeIntegralInRange(0, 3)) {
      case 0: return input_.ConsumeRandomLengthString(24);
      case 1: return input_.PickValueInArray(kDevices);
      default: return {};
    }
  }

  // An input tensor, or an Error when its shape, dtype, size or device is refused.
  hxrt::Tensor tensor() {
    const hxrt::DType dtype = this->dtype();
    const hxrt::Shape shape(dims());
    const std::string device = this->device();
    uint64_t bytes = 0;
    const bool fits = checked_bytes(shape, dtype, &bytes) && bytes <= kMaxInputBytes;
    // A shape too large to fill gets a small buffer: the runtime must refuse the mismatch.
    std::vector<uint8_t> contents(fits ? bytes : 16);
    for (uint8_t& byte : contents) byte = input_.ConsumeIntegral<uint8_t>();
    // The ABI's bool is one byte holding 0 or 1.
    if (dtype == hxrt::DType::kBool) {
      for (uint8_t& byte : contents) byte &= 1;
    }
    return runtime().from_host(dtype, shape, contents.data(), contents.size(), device);
  }

  hxrt::AttrValue attr_value() {
    switch (input_.ConsumeIntegralInRange(0, 6)) {
      case 0: return input_.ConsumeBool();
      case 1: return input_.ConsumeIntegralInRange(0, 3) == 0 ? extent()
                                                             : input_.ConsumeIntegral<int64_t>();
      case 2: {
        static const double kSpecial[] = {std::nan(""), HUGE_VAL, -HUGE_VAL, 1e300, -0.0, 2.5};
        return input_.ConsumeBool() ? input_.PickValueInArray(kSpecial)
                                    : input_.ConsumeFloatingPoint<double>();
      }
      case 3: return input_.ConsumeRandomLengthString(16);
      case 4: return dtype();
      case 5: return dims();
      default: {
        std::vector<double> floats(input_.ConsumeIntegralInRange<size_t>(0, 6));
        for (double& value : floats) value = input_.ConsumeFloatingPoint<double>();
        return floats;
      }
    }
  }

  hxrt::Attrs attrs() {
    hxrt::Attrs out;
    const int count = input_.ConsumeIntegralInRange(0, 4);
    for (int i = 0; i < count; ++i) {
      std::string name = input_.ConsumeIntegralInRange(0, 7) == 0
                             ? input_.ConsumeRandomLengthString(12)
                             : input_.PickValueInArray(kAttrNames);
      out.set(std::move(name), attr_value());
    }
    return out;
  }

  std::string op() {
    if (input_.ConsumeIntegralInRange(0, 31) == 0) return input_.ConsumeRandomLengthString(12);
    const std::vector<std::string>& ops = ops_with_kernels();
    return ops[input_.ConsumeIntegralInRange<size_t>(0, ops.size() - 1)];
  }

  // num_elements * dtype_size, false when it overflows or the dtype has no size.
  static bool checked_bytes(const hxrt::Shape& shape, hxrt::DType dtype, uint64_t* bytes) {
    uint64_t count = 1;
    for (int i = 0; i < shape.rank(); ++i) {
      if (shape[i] == 0) {
        *bytes = 0;
        return true;
      }
    }
    for (int i = 0; i < shape.rank(); ++i) {
      if (__builtin_mul_overflow(count, static_cast<uint64_t>(shape[i]), &count)) return false;
    }
    size_t element = 0;
    try {
      element = hxrt::dtype_size(dtype);
    } catch (const hxrt::Error&) {
      return false;
    }
    return !__builtin_mul_overflow(count, element, bytes);
  }

 private:
  FuzzedDataProvider& input_;
};

void check_output(const hxrt::Tensor& output, const std::string& op) {
  if (!output.valid()) finding(op + " returned an empty Tensor");
  uint64_t bytes = 0;
  if (!CallBuilder::checked_bytes(output.shape(), output.dtype(), &bytes) ||
      bytes != output.byte_size()) {
    finding(op + " returned a " + hxrt::dtype_name(output.dtype()) + " tensor of shape " +
            output.shape().to_string() + " holding " + std::to_string(output.byte_size()) +
            " bytes");
  }
  std::vector<uint8_t> host(bytes + 1);
  output.copy_to_host(host.data(), bytes);
  try {
    output.copy_to_host(host.data(), bytes + 1);
  } catch (const hxrt::Error&) {
    output.to_string();
    return;
  }
  finding(op + ": copy_to_host accepted more bytes than the tensor holds");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider input(data, size);
  CallBuilder call(input);
  try {
    static const hxrt::SoftPlacement kModes[] = {hxrt::SoftPlacement::kStrict,
                                                 hxrt::SoftPlacement::kFallbackOnMissingKernel,
                                                 hxrt::SoftPlacement::kSoft};
    runtime().set_soft_placement(input.PickValueInArray(kModes));
    const std::string op = call.op();
    std::vector<hxrt::Tensor> inputs;
    const int count = input.ConsumeIntegralInRange(0, 15) == 0 ? input.ConsumeIntegralInRange(5, 9)
                                                               : input.ConsumeIntegralInRange(0, 3);
    for (int i = 0; i < count; ++i) inputs.push_back(call.tensor());
    const hxrt::Attrs attrs = call.attrs();
    const std::string device = call.device();
    for (const hxrt::Tensor& output : runtime().execute_multi(op, inputs, attrs, device)) {
      check_output(output, op);
      if (input.ConsumeBool()) check_output(runtime().to_device(output, call.device()), op);
    }
  } catch (const hxrt::Error&) {
    // Refused: the oracle only asks that refusals are hxrt::Error.
  }
  return 0;
}
