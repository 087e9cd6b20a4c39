// Kernel instances (ABI 2.0): made once per (kernel, attributes, dtypes, device) by the
// kernel's create, used by every later call of that combination, destroyed once when the
// runtime goes. The declining fixture counts its MatMul creates and destroys.
#include <atomic>
#include <catch2/catch.hpp>
#include <cmath>
#include <thread>
#include <vector>

#include "declining_runtime.hpp"

using namespace placement_test;

TEST_CASE("one instance serves a thousand calls with equal attributes, and each is destroyed "
          "once with the runtime") {
  const DecliningLibrary library;  // keeps the counters loaded after the runtime unloads it
  const InstanceCounts before = library.counts();
  {
    hxrt::Runtime rt = declining_runtime();
    hxrt::Tensor a = rt.tensor<float>({2, 2}, {1, 2, 3, 4}, "/DECLINE:0");
    for (int i = 0; i < 1000; ++i) rt.execute("MatMul", {a, a}, {}, "/DECLINE:0");
    CHECK(library.counts().creates - before.creates == 1);

    hxrt::Tensor product = rt.execute("MatMul", {a, a}, {{"transpose_b", true}}, "/DECLINE:0");
    for (int i = 0; i < 10; ++i) {
      rt.execute("MatMul", {a, a}, {{"transpose_b", true}}, "/DECLINE:0");
    }
    CHECK(product.to_vector<float>() == std::vector<float>{5, 11, 11, 25});
    CHECK(library.counts().creates - before.creates == 2);
    CHECK(library.counts().destroys == before.destroys);  // kept while the runtime lives
  }
  const InstanceCounts after = library.counts();
  CHECK(after.creates - before.creates == 2);
  CHECK(after.destroys - before.destroys == 2);
}

TEST_CASE("a declined combination makes no instance and is not asked again") {
  const DecliningLibrary library;
  const InstanceCounts before = library.counts();
  {
    hxrt::Runtime rt = declining_runtime();
    hxrt::Tensor a = rt.tensor<float>({1, 1}, {3}, "/CPU:0");
    for (int i = 0; i < 3; ++i) {
      CHECK(rt.execute("MatMul", {a, a}, {{"transpose_a", true}}, "/DECLINE:0").device() ==
            "/job:localhost/replica:0/task:0/device:CPU:0");
    }
  }
  CHECK(library.counts().creates == before.creates);
  CHECK(library.counts().destroys == before.destroys);
}

TEST_CASE("every decision that places a combination on one kernel and device shares its "
          "instance") {
  const DecliningLibrary library;
  const InstanceCounts before = library.counts();
  {
    hxrt::Runtime rt = declining_runtime();
    hxrt::Tensor a = rt.tensor<float>({2, 2}, {1, 2, 3, 4}, "/DECLINE:0");
    // Three requests, three cached decisions, all on DECLINE:0's MatMul.
    for (const char* device : {"/DECLINE:0", "DECLINE:0", "/device:DECLINE:0", ""}) {
      CHECK(rt.execute("MatMul", {a, a}, {}, device).device() == kDecline0);
    }
    CHECK(library.counts().creates - before.creates == 1);
  }
  CHECK(library.counts().destroys - before.destroys == 1);
}

TEST_CASE("threads racing to the first calls of two combinations make one instance each") {
  const DecliningLibrary library;
  const InstanceCounts before = library.counts();
  {
    hxrt::Runtime rt = declining_runtime();
    hxrt::Tensor a = rt.tensor<float>({2, 2}, {1, 2, 3, 4}, "/DECLINE:0");
    std::atomic<int> wrong{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
      threads.emplace_back([&rt, &a, &wrong, t] {
        for (int i = 0; i < 50; ++i) {
          const bool transpose = (i + t) % 2 == 1;
          const std::vector<float> expected =
              transpose ? std::vector<float>{5, 11, 11, 25} : std::vector<float>{7, 10, 15, 22};
          hxrt::Tensor c =
              rt.execute("MatMul", {a, a}, {{"transpose_b", transpose}}, "/DECLINE:0");
          if (c.to_vector<float>() != expected) ++wrong;
        }
      });
    }
    for (std::thread& thread : threads) thread.join();
    CHECK(wrong == 0);
    CHECK(library.counts().creates - before.creates == 2);
  }
  CHECK(library.counts().destroys - before.destroys == 2);
}

TEST_CASE("an instance made for one attribute value never serves another that compares equal: "
          "Fill of -0.0 after 0.0 writes -0.0") {
  hxrt::RuntimeOptions options;
  options.log_level = hxrt::LogLevel::kWarning;
  hxrt::Runtime rt = hxrt::Runtime::create(options);
  const auto fill = [&rt](double value) {
    return rt
        .execute("Fill", {}, {{"shape", std::vector<int64_t>{1}}, {"value", value}}, "/CPU:0")
        .to_vector<float>()
        .at(0);
  };
  CHECK_FALSE(std::signbit(fill(0.0)));
  CHECK(std::signbit(fill(-0.0)));
  CHECK_FALSE(std::signbit(fill(0.0)));
  CHECK(std::isnan(fill(std::nan(""))));
}
