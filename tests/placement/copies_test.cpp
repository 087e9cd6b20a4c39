// Inputs that live on another device are copied to the op's device, exactly once each, and
// the copies are logged; inputs already there are not copied.
#include <catch2/catch.hpp>

#include "sim_runtime.hpp"

using namespace placement_test;

TEST_CASE("no copy when the inputs already live on the op's device") {
  hxrt::Runtime rt = four_gpus();
  hxrt::Tensor a = rt.tensor<float>({2, 2}, {1, 2, 3, 4}, "/GPU:1");
  hxrt::Tensor b = rt.tensor<float>({2, 2}, {1, 0, 0, 1}, "/GPU:1");
  reset_sim_counts();
  LogCapture log;
  log.attach(rt);
  hxrt::Tensor c = rt.execute("MatMul", {a, b}, {}, "/GPU:1");
  const hx_sim_transfer_counts_t counts = sim_counts(1);
  CHECK(counts.host_to_device == 0);
  CHECK(counts.device_to_host == 0);
  CHECK(counts.device_to_device == 0);
  CHECK(log.count_starting_with("Copying") == 0);
  CHECK(c.to_vector<float>() == std::vector<float>{1, 2, 3, 4});
}

TEST_CASE("inputs on the host are copied once each to the op's device") {
  hxrt::Runtime rt = four_gpus();
  hxrt::Tensor a = rt.tensor<float>({2, 3}, {1, 2, 3, 4, 5, 6}, "/CPU:0");
  hxrt::Tensor b = rt.tensor<float>({3, 2}, {1, 2, 3, 4, 5, 6}, "/CPU:0");
  reset_sim_counts();
  LogCapture log;
  log.attach(rt);
  hxrt::Tensor c = rt.execute("MatMul", {a, b});
  CHECK(c.device() == kGpu0);
  const hx_sim_transfer_counts_t counts = sim_counts(0);
  CHECK(counts.host_to_device == 2);
  CHECK(counts.host_to_device_bytes == 2 * 6 * sizeof(float));
  CHECK(counts.device_to_device == 0);
  CHECK(log.lines == std::vector<std::string>{
                         "Copying input 0 of MatMul from " + kCpu0 + " to " + kGpu0,
                         "Copying input 1 of MatMul from " + kCpu0 + " to " + kGpu0,
                         "Executing op MatMul in device " + kGpu0});
  CHECK(c.to_string() == "[[22, 28], [49, 64]]");
}

TEST_CASE("only the input that lives elsewhere is copied") {
  hxrt::Runtime rt = four_gpus();
  hxrt::Tensor on_gpu = rt.tensor<float>({2}, {1, 2}, "/GPU:0");
  hxrt::Tensor on_cpu = rt.tensor<float>({2}, {10, 20}, "/CPU:0");
  reset_sim_counts();
  hxrt::Tensor sum = rt.execute("Add", {on_gpu, on_cpu}, {}, "/GPU:0");
  CHECK(sim_counts(0).host_to_device == 1);
  CHECK(sum.to_vector<float>() == std::vector<float>{11, 22});
}

TEST_CASE("between two devices of one plugin the copy is device to device") {
  hxrt::Runtime rt = four_gpus();
  hxrt::Tensor a = rt.tensor<float>({2}, {1, 2}, "/GPU:1");
  reset_sim_counts();
  hxrt::Tensor b = rt.execute("Relu", {a}, {}, "/GPU:2");
  CHECK(sim_counts(2).device_to_device == 1);
  CHECK(sim_counts(2).host_to_device == 0);
  CHECK(sim_counts(1).device_to_host == 0);
  CHECK(b.device() == kGpu2);
}

TEST_CASE("between devices of two plugins the copy goes through host memory") {
  hxrt::Runtime rt = four_gpus();
  hxrt::Tensor a = rt.tensor<float>({2}, {-1, 2}, "/GPU:3");
  reset_sim_counts();
  hxrt::Tensor i = rt.execute("Cast", {a}, {{"dtype", hxrt::DType::kI32}});  // CPU only
  CHECK(i.device() == kCpu0);
  CHECK(sim_counts(3).device_to_host == 1);
  CHECK(i.to_vector<int32_t>() == std::vector<int32_t>{-1, 2});
}
