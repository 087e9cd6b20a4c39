// Stream-ordered memory: a block that another device's stream still reads is not handed out
// again before that read has completed (the record-stream rule); on its own stream a block
// is reused at once.
#include <catch2/catch.hpp>

#include "execution_rig.hpp"

using namespace execution_test;

TEST_CASE("A block freed while another device's copy still reads it is not reused before the "
          "copy has run", "[execution]") {
  // The copy to GPU:1 reads its source a second after it is queued (the model's latency);
  // GPU:0 meanwhile frees the source and fills a new tensor of the same size at once. Were the
  // block handed out again, the copy would read the fill.
  hxrt::Runtime rt = runtime_with_gpus(2, "\"d2d_latency_us\":1000000");
  const int64_t n = 32;
  hxrt::Tensor source = rt.tensor({n, n}, iota(n), "/GPU:0");
  source.wait();
  const size_t held_before = rt.memory_stats("/GPU:0").bytes_in_use;
  const hxrt::Tensor copy = rt.to_device(source, "/GPU:1");
  CHECK_FALSE(copy.ready());
  source = hxrt::Tensor();
  // Still held for the copy's read.
  CHECK(rt.memory_stats("/GPU:0").bytes_in_use == held_before);
  const hxrt::Attrs fill{{"shape", std::vector<int64_t>{n, n}}, {"value", 7.0}};
  const hxrt::Tensor filled = rt.execute("Fill", {}, fill, "/GPU:0");
  filled.wait();
  CHECK(copy.to_vector<float>() == iota(n));
  CHECK(filled.to_vector<float>() == std::vector<float>(static_cast<size_t>(n * n), 7.0f));
  // Released once the copy completed: the next allocation takes it back.
  rt.synchronize();
  const hxrt::Tensor again = rt.execute("Fill", {}, fill, "/GPU:0");
  again.wait();
  CHECK(rt.memory_stats("/GPU:0").bytes_in_use == 2 * held_before);
}

TEST_CASE("A block freed with only its own stream's work queued is reused at once",
          "[execution]") {
  hxrt::Runtime rt =
      runtime_with_gpus(1, "\"matmul_gflops\":" + std::to_string(gflops_for(64, 1.0)));
  const hxrt::Tensor a = rt.tensor({64, 64}, iota(64), "/GPU:0");
  const hxrt::Tensor slow = rt.execute("MatMul", {a, a}, {}, "/GPU:0");
  rt.reset_peak_memory("/GPU:0");
  const size_t before = rt.memory_stats("/GPU:0").bytes_in_use;
  for (int i = 0; i < 8; ++i) {
    hxrt::Tensor relu = rt.execute("Relu", {a}, {}, "/GPU:0");  // queued behind the MatMul
    CHECK_FALSE(relu.ready());
  }
  // Each Relu's output went back when its handle did and the next one took the same block.
  CHECK(rt.memory_stats("/GPU:0").peak_bytes_in_use - before == 64 * 64 * sizeof(float));
  CHECK_FALSE(slow.ready());
}

TEST_CASE("Out of memory waits for blocks other streams still read, then succeeds",
          "[execution]") {
  // A device of 1 MiB: two 384 KiB tensors fit, a third only once the copy that reads the
  // first has completed and released it.
  hxrt::Runtime rt = runtime_with_gpus(2, "\"memory_mb\":1,\"d2d_latency_us\":300000");
  const int64_t n = 96 * 1024;  // floats: 384 KiB
  std::vector<float> values(static_cast<size_t>(n), 1.5f);
  hxrt::Tensor first = rt.tensor({n}, values, "/GPU:0");
  const hxrt::Tensor copy = rt.to_device(first, "/GPU:1");
  first = hxrt::Tensor();
  const hxrt::Tensor second = rt.tensor({n}, values, "/GPU:0");
  const hxrt::Tensor third = rt.tensor({n}, values, "/GPU:0");
  CHECK(copy.to_vector<float>() == values);
  CHECK(third.to_vector<float>() == values);
}
