// A compiled graph asks kernels that may decline once, at compile: instances are made then,
// one per combination, and runs make none; a node whose kernel declines falls back at compile
// with the kernel's reason.
#include <catch2/catch.hpp>

#include <hxrt/hxrt.hpp>

#include "declining_runtime.hpp"

using placement_test::DecliningLibrary;
using placement_test::declining_runtime;
using placement_test::kDecline0;

TEST_CASE("a graph makes its kernel instances once, at compile, and declines fall back there") {
  const DecliningLibrary library;
  hxrt::Runtime rt = declining_runtime();
  hxrt::GraphBuilder builder(rt);
  const hxrt::NodeOutput a = builder.input("a", hxrt::DType::kF32, {2, 2});
  const hxrt::NodeOutput first = builder.add("first", "MatMul", {a, a}, {}, "/DECLINE:0");
  const hxrt::NodeOutput second = builder.add("second", "MatMul", {first, a}, {}, "/DECLINE:0");
  const hxrt::NodeOutput kept =
      builder.add("kept", "MatMul", {second, a}, {{"transpose_b", true}}, "/DECLINE:0");
  const hxrt::NodeOutput declined =
      builder.add("declined", "MatMul", {kept, a}, {{"transpose_a", true}}, "/DECLINE:0");

  const placement_test::InstanceCounts before = library.counts();
  const hxrt::Executable exe = rt.compile(builder.graph(), {declined});
  const placement_test::InstanceCounts compiled = library.counts();
  // first and second share a combination and kept has its own; declined's create refused
  // (and made nothing).
  CHECK(compiled.creates - before.creates == 2);
  const auto& placement = exe.placement();
  REQUIRE(placement.size() == 5);
  CHECK(placement[3].device == kDecline0);
  CHECK(placement[4].device == "/job:localhost/replica:0/task:0/device:CPU:0");
  CHECK_THAT(placement[4].reason, Catch::Contains("declined"));

  const hxrt::Tensor fed = rt.tensor<float>({2, 2}, {1, 0, 0, 1}, "/CPU:0");
  for (int run = 0; run < 5; ++run) {
    CHECK(exe.run({{"a", fed}})[0].to_vector<float>() == std::vector<float>{1, 0, 0, 1});
  }
  CHECK(library.counts().creates == compiled.creates);
}
