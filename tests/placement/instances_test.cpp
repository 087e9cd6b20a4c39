// Kernel instances (ABI 2.0): made once per (kernel, attributes, dtypes, device) by the
// kernel's create, used by every later call of that combination, destroyed once when the
// runtime goes. The declining fixture counts its MatMul creates and destroys.
#include <catch2/catch.hpp>

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
