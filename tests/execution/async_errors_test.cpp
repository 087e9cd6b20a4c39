// Errors of queued work surface at the next wait for what they wrote, naming the op, the
// device and the plugin, and leave the runtime usable. The sim's fault_ops option makes a
// kernel fail when its queued work runs, as a GPU kernel that faults after launch.
#include <catch2/catch.hpp>

#include "execution_rig.hpp"

using namespace execution_test;

namespace {

void check_names_relu_on_gpu0(const std::optional<hxrt::Error>& error) {
  REQUIRE(error);
  CHECK_THAT(error->what(), Catch::Contains("Relu"));
  CHECK_THAT(error->what(), Catch::Contains("/device:GPU:0"));
  CHECK_THAT(error->what(), Catch::Contains("plugin 'sim'"));
}

}  // namespace

TEST_CASE("A failure of queued work surfaces at the first wait for its output, and again at "
          "every later one", "[execution]") {
  hxrt::Runtime rt = runtime_with_gpus(1, "\"fault_ops\":[\"Relu\"],\"launch_latency_us\":50000");
  const hxrt::Tensor x = rt.tensor<float>({4}, {-1, 2, -3, 4}, "/GPU:0");
  const hxrt::Tensor relu = rt.execute("Relu", {x}, {}, "/GPU:0");  // queued: no error yet
  check_names_relu_on_gpu0(error_from([&] { relu.to_vector<float>(); }));
  check_names_relu_on_gpu0(error_from([&] { relu.wait(); }));
  CHECK(relu.ready());

  // Work that reads the failed output fails at once, naming where its input came from.
  const auto consumer = error_from([&] { rt.execute("Add", {relu, x}, {}, "/GPU:0"); });
  REQUIRE(consumer);
  CHECK_THAT(consumer->what(), Catch::Contains("Add's input 0"));
  CHECK_THAT(consumer->what(), Catch::Contains("Relu"));

  // The runtime goes on: new work on the same device runs and reads back.
  const hxrt::Tensor sum = rt.execute("Add", {x, x}, {}, "/GPU:0");
  CHECK(sum.to_vector<float>() == std::vector<float>{-2, 4, -6, 8});
  rt.synchronize();
}

TEST_CASE("A failure of queued work surfaces at synchronize, and at the waits for what it "
          "wrote", "[execution]") {
  hxrt::Runtime rt = runtime_with_gpus(2, "\"fault_ops\":[\"Relu\"]");
  const hxrt::Tensor x = rt.tensor<float>({4}, {-1, 2, -3, 4}, "/GPU:0");
  const hxrt::Tensor other = rt.tensor<float>({4}, {1, 1, 1, 1}, "/GPU:1");
  const hxrt::Tensor relu = rt.execute("Relu", {x}, {}, "/GPU:0");
  const hxrt::Tensor fine = rt.execute("Add", {other, other}, {}, "/GPU:1");
  const auto at_synchronize = error_from([&] { rt.synchronize(); });
  REQUIRE(at_synchronize);
  CHECK_THAT(at_synchronize->what(), Catch::Contains("/device:GPU:0"));
  CHECK_THAT(at_synchronize->what(), Catch::Contains("plugin 'sim'"));
  CHECK_THAT(at_synchronize->what(), Catch::Contains("Relu"));
  check_names_relu_on_gpu0(error_from([&] { relu.wait(); }));
  CHECK(fine.to_vector<float>() == std::vector<float>{2, 2, 2, 2});
  rt.synchronize();  // cleared: nothing failed since
}

TEST_CASE("A failure on one device does not reach a copy that another device made before it",
          "[execution]") {
  hxrt::Runtime rt = runtime_with_gpus(2, "\"fault_ops\":[\"Relu\"]");
  const hxrt::Tensor x = rt.tensor<float>({4}, {-1, 2, -3, 4}, "/GPU:0");
  const hxrt::Tensor copied = rt.to_device(x, "/GPU:1");
  const hxrt::Tensor relu = rt.execute("Relu", {x}, {}, "/GPU:0");
  CHECK(copied.to_vector<float>() == std::vector<float>{-1, 2, -3, 4});
  check_names_relu_on_gpu0(error_from([&] { relu.wait(); }));
}

TEST_CASE("Work on another device that read a failed tensor fails too, naming both",
          "[execution]") {
  hxrt::Runtime rt =
      runtime_with_gpus(2, "\"fault_ops\":[\"Relu\"],\"launch_latency_us\":50000");
  const hxrt::Tensor x = rt.tensor<float>({4}, {-1, 2, -3, 4}, "/GPU:0");
  const hxrt::Tensor relu = rt.execute("Relu", {x}, {}, "/GPU:0");
  // Queued on GPU:1 behind Relu's event before anyone knows it failed.
  const hxrt::Tensor sum = rt.execute("Add", {relu, relu}, {}, "/GPU:1");
  const auto error = error_from([&] { sum.wait(); });
  REQUIRE(error);
  CHECK_THAT(error->what(), Catch::Contains("/device:GPU:1"));
  CHECK_THAT(error->what(), Catch::Contains("waited for work that failed"));
  CHECK_THAT(error->what(), Catch::Contains("Relu"));
  check_names_relu_on_gpu0(error_from([&] { relu.wait(); }));
  // Both devices go on.
  const hxrt::Tensor fine = rt.execute("Add", {x, x}, {}, "/GPU:1");
  CHECK(fine.to_vector<float>() == std::vector<float>{-2, 4, -6, 8});
}
