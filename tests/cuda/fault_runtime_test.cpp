// The testing aid fault_ops through the public API: an op whose work fails on the GPU after
// execute returned is reported at the first wait for its output, naming the op, the device and
// the plugin, again at every later wait, and nothing crashes; the GPU is lost for the process
// (a trap is a sticky error) but the runtime stays usable on the CPU. Its own executable, since
// nothing may use the GPU in the process afterwards. Needs a GPU.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "plugin_test_support.hpp"

using Catch::Matchers::Contains;

namespace {

hxrt::Runtime faulting_runtime() {
  hxrt::RuntimeOptions options;
  options.use_installed_plugins = false;
  options.plugin_paths = {cuda_plugin_test::cpu_plugin_path(),
                          cuda_plugin_test::cuda_plugin_path()};
  options.plugin_options = {{"cuda", R"({"fault_ops": ["Relu"]})"}};
  return hxrt::Runtime::create(options);
}

std::string error_of(const hxrt::Tensor& tensor) {
  try {
    tensor.wait();
  } catch (const hxrt::Error& error) {
    return error.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("A GPU op that fails after execute returned is reported at the next wait",
          "[cuda][faults][gpu]") {
  hxrt::Runtime runtime = faulting_runtime();
  CUDA_PLUGIN_TEST_REQUIRE_GPU(runtime);
  const hxrt::Tensor x = runtime.tensor<float>({4}, {-1, 2, -3, 4}, "GPU:0");
  const hxrt::Tensor relu = runtime.execute("Relu", {x}, {}, "GPU:0");  // returns: only queued

  const std::string first = error_of(relu);
  CHECK_THAT(first, Contains("Relu") && Contains("GPU:0") && Contains("plugin 'cuda'") &&
                        Contains("failed after it was queued"));
  // Every later wait for the tensor reports it again, and a read fails the same way.
  CHECK_THAT(error_of(relu), Contains("Relu") && Contains("GPU:0"));
  CHECK_THROWS_AS(relu.to_vector<float>(), hxrt::Error);
  // The GPU's context is lost, and its other work says so rather than answering wrongly.
  CHECK_THROWS_AS(runtime.execute("Add", {x, x}, {}, "GPU:0").to_vector<float>(), hxrt::Error);

  // The runtime itself is still usable.
  const hxrt::Tensor c = runtime.tensor<float>({2}, {1, 2}, "CPU:0");
  CHECK(runtime.execute("Add", {c, c}, {}, "CPU:0").to_vector<float>() ==
        std::vector<float>{2, 4});
}
