// Asynchronous execution on real GPUs through the public API (docs/embedding.md, "Asynchronous
// execution"): ops return once queued, a tensor's read waits for its own writer only, devices
// do not wait for each other's queues, and memory freed while another device's copy still
// reads it is not handed out again before the copy has run. Times are compared as generous
// ratios of one run (a queue of about 8 x 20 ms against work of microseconds), never against
// fixed thresholds. Need a GPU; one physical GPU is cut into two logical GPUs where two are
// needed.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "async_support.hpp"
#include "plugin_test_support.hpp"

using cuda_async_test::big_matrix;
using cuda_async_test::Clock;
using cuda_async_test::kChain;
using cuda_async_test::queue_matmuls;
using cuda_async_test::seconds_since;
using cuda_async_test::two_logical_gpus;
using cuda_async_test::warm_up;

TEST_CASE("A MatMul returns once queued: enqueuing a chain takes far less than waiting for it",
          "[cuda][async][gpu]") {
  hxrt::Runtime runtime = cuda_plugin_test::make_runtime();
  CUDA_PLUGIN_TEST_REQUIRE_GPU(runtime);
  warm_up(runtime, "GPU:0");
  const hxrt::Tensor x = big_matrix(runtime, "GPU:0");

  const Clock::time_point start = Clock::now();
  const hxrt::Tensor product = queue_matmuls(runtime, "GPU:0", x, x, kChain);
  const double enqueued = seconds_since(start);
  product.wait();
  const double completed = seconds_since(start);
  INFO("enqueued in " << enqueued << " s, completed in " << completed << " s");
  CHECK(enqueued < completed / 2);
}

TEST_CASE("Reading a small tensor waits for its own writer, not for the device's queue",
          "[cuda][async][gpu]") {
  hxrt::Runtime runtime = cuda_plugin_test::make_runtime();
  CUDA_PLUGIN_TEST_REQUIRE_GPU(runtime);
  warm_up(runtime, "GPU:0");
  const std::vector<float> values = {1.5f, -2.0f, 3.25f, 4.0f};
  const hxrt::Tensor small = runtime.tensor<float>({4}, values, "GPU:0");
  small.wait();
  const hxrt::Tensor x = big_matrix(runtime, "GPU:0");

  const Clock::time_point start = Clock::now();
  const hxrt::Tensor busy = queue_matmuls(runtime, "GPU:0", x, x, kChain);
  const std::vector<float> read = small.to_vector<float>();
  const double read_after = seconds_since(start);
  busy.wait();
  const double queue_after = seconds_since(start);
  INFO("read after " << read_after << " s, queue done after " << queue_after << " s");
  CHECK(read == values);
  // A read that synchronised the device would have waited for the whole queue.
  CHECK(read_after < queue_after / 2);
}

TEST_CASE("Two logical GPUs of one card do not wait for each other's queues",
          "[cuda][async][logical][gpu]") {
  hxrt::Runtime runtime = cuda_plugin_test::make_runtime();
  CUDA_PLUGIN_TEST_REQUIRE_GPU(runtime);
  const std::vector<std::string> gpus = two_logical_gpus(runtime);
  warm_up(runtime, gpus[0]);
  warm_up(runtime, gpus[1]);
  const hxrt::Tensor x = big_matrix(runtime, gpus[0]);
  const hxrt::Tensor y = runtime.tensor<float>({2, 2}, {1, 2, 3, 4}, gpus[1]);
  y.wait();

  const Clock::time_point start = Clock::now();
  const hxrt::Tensor busy = queue_matmuls(runtime, gpus[0], x, x, kChain);
  const hxrt::Tensor quick = runtime.execute("MatMul", {y, y}, {}, gpus[1]);
  const std::vector<float> quick_values = quick.to_vector<float>();
  const double quick_after = seconds_since(start);
  busy.wait();
  const double busy_after = seconds_since(start);
  INFO("GPU:1 done after " << quick_after << " s, GPU:0's queue after " << busy_after << " s");
  CHECK(quick_values == std::vector<float>{7, 10, 15, 22});
  // The two share the card's SMs, so GPU:1's kernel may wait for a running GEMM of GPU:0 to
  // leave room, but not for GPU:0's whole queue.
  CHECK(quick_after < busy_after / 2);
}

TEST_CASE("Two physical GPUs run their queues at once", "[cuda][async][gpu]") {
  hxrt::Runtime runtime = cuda_plugin_test::make_runtime();
  CUDA_PLUGIN_TEST_REQUIRE_GPU(runtime);
  const auto physical = runtime.physical_devices();
  const auto gpus = std::count_if(physical.begin(), physical.end(),
                                  [](const hxrt::PhysicalDeviceInfo& d) { return d.plugin == "cuda"; });
  if (gpus < 2) {
    // Two logical GPUs of one card share its SMs: GEMMs that fill the card cannot finish
    // sooner together than one after the other, so only separate cards show the overlap (the
    // test above shows that logical GPUs do not wait for each other).
    WARN("not applicable: needs two physical CUDA GPUs, found " << gpus);
    return;
  }
  for (const char* device : {"GPU:0", "GPU:1"}) warm_up(runtime, device);
  const hxrt::Tensor x0 = big_matrix(runtime, "GPU:0");
  const hxrt::Tensor x1 = big_matrix(runtime, "GPU:1");
  const auto alone = [&](const char* device, const hxrt::Tensor& x) {
    const Clock::time_point start = Clock::now();
    queue_matmuls(runtime, device, x, x, kChain).wait();
    return seconds_since(start);
  };
  const double first = alone("GPU:0", x0);
  const double second = alone("GPU:1", x1);
  const Clock::time_point start = Clock::now();
  const hxrt::Tensor on_first = queue_matmuls(runtime, "GPU:0", x0, x0, kChain);
  const hxrt::Tensor on_second = queue_matmuls(runtime, "GPU:1", x1, x1, kChain);
  on_first.wait();
  on_second.wait();
  const double together = seconds_since(start);
  INFO("alone " << first << " s and " << second << " s, together " << together << " s");
  // Perfect overlap is max(first, second), about half the sum; run one after the other, it
  // is the sum.
  CHECK(together < 0.75 * (first + second));
}

TEST_CASE("Memory a queued copy to another GPU reads is not reused before the copy runs",
          "[cuda][async][memory][logical][gpu]") {
  hxrt::Runtime runtime = cuda_plugin_test::make_runtime();
  CUDA_PLUGIN_TEST_REQUIRE_GPU(runtime);
  const std::vector<std::string> gpus = two_logical_gpus(runtime);
  warm_up(runtime, gpus[0]);
  warm_up(runtime, gpus[1]);
  constexpr int64_t kCount = int64_t{64} << 20;  // 256 MiB of f32
  std::vector<float> a_values(static_cast<size_t>(kCount));
  for (size_t i = 0; i < a_values.size(); ++i) a_values[i] = static_cast<float>(i % 1000);
  const std::vector<float> b_values(static_cast<size_t>(kCount), -1.0f);

  // GPU:1's stream is busy for a while, so the copy of A queued on it runs late.
  const hxrt::Tensor x = big_matrix(runtime, gpus[1]);
  const hxrt::Tensor busy = queue_matmuls(runtime, gpus[1], x, x, kChain);
  hxrt::Tensor copied;
  {
    const hxrt::Tensor a = runtime.tensor<float>({kCount}, a_values, gpus[0]);
    a.wait();
    copied = runtime.execute("Identity", {a}, {}, gpus[1]);
  }  // A's last handle goes while the copy that reads it is still queued on GPU:1.
  // The same size: A's memory is the allocator's first choice, and B is written at once.
  const hxrt::Tensor b = runtime.tensor<float>({kCount}, b_values, gpus[0]);
  b.wait();
  CHECK(copied.to_vector<float>() == a_values);
  CHECK(b.to_vector<float>() == b_values);
  busy.wait();
}
