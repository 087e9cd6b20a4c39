#include "kernel_test_support.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>

namespace cuda_kernel_test {
namespace {

hxrt::Runtime make_runtime() {
  hxrt::Runtime runtime = cuda_plugin_test::make_runtime();
  runtime.set_soft_placement(hxrt::SoftPlacement::kStrict);
  return runtime;
}

bool cpu_has_kernel(const std::string& op, hxrt::DType dtype) {
  static const std::vector<hxrt::KernelInfo> kernels = runtime().kernels();
  return std::any_of(kernels.begin(), kernels.end(), [&](const hxrt::KernelInfo& kernel) {
    return kernel.op == op && kernel.device_type == "CPU" &&
           std::find(kernel.dtypes.begin(), kernel.dtypes.end(), dtype) != kernel.dtypes.end();
  });
}

hxrt::Tensor cast_on_cpu(const hxrt::Tensor& tensor, hxrt::DType dtype) {
  if (tensor.dtype() == dtype && tensor.device() == kCpu0) return tensor;
  return runtime().execute("Cast", {tensor}, {{"dtype", dtype}}, kCpu0);
}

}  // namespace

hxrt::Runtime& runtime() {
  static hxrt::Runtime instance = make_runtime();
  return instance;
}

hxrt::Tensor cpu_tensor(hxrt::DType dtype, const hxrt::Shape& shape,
                        const std::vector<double>& values) {
  return cast_on_cpu(runtime().tensor<double>(shape, values, kCpu0), dtype);
}

std::vector<double> random_values(size_t count, uint32_t seed, double low, double high) {
  std::mt19937 engine(seed);
  std::uniform_real_distribution<double> uniform(low, high);
  std::vector<double> values(count);
  for (double& value : values) value = uniform(engine);
  return values;
}

hxrt::Tensor random_tensor(hxrt::DType dtype, const hxrt::Shape& shape, uint32_t seed, double low,
                           double high) {
  return cpu_tensor(dtype, shape,
                    random_values(static_cast<size_t>(shape.num_elements()), seed, low, high));
}

std::vector<double> values_of(const hxrt::Tensor& tensor) {
  return cast_on_cpu(tensor, hxrt::DType::kF64).to_vector<double>();
}

hxrt::Tensor run_on_gpu(const std::string& op, const std::vector<hxrt::Tensor>& inputs,
                        const hxrt::Attrs& attrs) {
  hxrt::Tensor result = runtime().execute(op, inputs, attrs, kGpu0);
  REQUIRE(result.device() == kGpu0);
  return result;
}

hxrt::Tensor cpu_reference(const std::string& op, const std::vector<hxrt::Tensor>& inputs,
                           const hxrt::Attrs& attrs) {
  const hxrt::DType dtype = inputs.empty() ? hxrt::DType::kF32 : inputs[0].dtype();
  if (inputs.empty() || cpu_has_kernel(op, dtype)) {
    return runtime().execute(op, inputs, attrs, kCpu0);
  }
  std::vector<hxrt::Tensor> widened;
  for (const hxrt::Tensor& input : inputs) widened.push_back(cast_on_cpu(input, hxrt::DType::kF32));
  return cast_on_cpu(runtime().execute(op, widened, attrs, kCpu0), dtype);
}

double relative_tolerance(hxrt::DType dtype) {
  switch (dtype) {
    case hxrt::DType::kF64: return 1e-12;
    case hxrt::DType::kF16: return 1e-2;
    case hxrt::DType::kBF16: return 2e-2;
    default: return 1e-5;
  }
}

void check_elements(const hxrt::Tensor& got, const hxrt::Tensor& want, const Tolerance& tolerance) {
  REQUIRE(hxrt::dtype_name(got.dtype()) == std::string(hxrt::dtype_name(want.dtype())));
  REQUIRE(got.shape().to_string() == want.shape().to_string());
  const std::vector<double> got_values = values_of(got);
  const std::vector<double> want_values = values_of(want);
  size_t mismatches = 0;
  std::ostringstream first;
  for (size_t i = 0; i < want_values.size(); ++i) {
    const double g = got_values[i];
    const double w = want_values[i];
    const bool same = std::isnan(w)   ? std::isnan(g)
                      : std::isinf(w) ? g == w
                                      : std::fabs(g - w) <= tolerance(i, w);
    if (same) continue;
    if (mismatches++ == 0) {
      first.precision(17);
      first << "element " << i << ": got " << g << ", want " << w << " (tolerance "
            << tolerance(i, w) << ")";
    }
  }
  INFO(hxrt::dtype_name(want.dtype())
       << ' ' << want.shape().to_string() << ": " << mismatches << " of " << want_values.size()
       << " elements differ; " << first.str());
  CHECK(mismatches == 0);
}

void check_close(const hxrt::Tensor& got, const hxrt::Tensor& want) {
  const double relative = relative_tolerance(want.dtype());
  check_elements(got, want, [relative](size_t, double w) { return relative * std::fabs(w); });
}

void check_equal(const hxrt::Tensor& got, const hxrt::Tensor& want) {
  check_elements(got, want, [](size_t, double) { return 0.0; });
}

}  // namespace cuda_kernel_test
