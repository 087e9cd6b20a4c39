// The sim kernels through the plugin's table: operands resolved from (buffer, byte_offset) and
// refused outside the device's buffers, MatMul declining at create and at check with its
// reason, instances made once and computed many times, and broadcast inputs (stride 0).
#include <catch2/catch.hpp>
#include <cstdint>
#include <vector>

#include "direct_plugin.hpp"
#include "sim_direct.hpp"

using hxrt_test::Attributes;
using hxrt_test::DirectPlugin;
using hxrt_test::KernelInstance;
using hxrt_test::Outcome;
using hxrt_test::View;

using sim_direct::kF32;
using sim_direct::kF32x2;
using sim_direct::kSim;
using sim_direct::kTwoGpus;

TEST_CASE("Directly: a sim kernel refuses operands that are not in its device's buffers",
          "[sim][direct]") {
  const DirectPlugin plugin(kSim, kTwoGpus);
  REQUIRE(plugin.init_outcome().code == HX_OK);
  const hx_plugin_api& api = plugin.api();
  hx_device* const device0 = plugin.device(0);
  hx_device* const device1 = plugin.device(1);
  KernelInstance relu(plugin.kernel("Relu"), device0, kF32, kF32);

  // Input and output share one buffer, at offsets as the core's allocator places them.
  hx_buffer* buffer = plugin.allocate(device0, 1024, 256);
  hx_buffer* elsewhere = plugin.allocate(device1, 1024, 256);
  plugin.upload(device0, buffer, 256, {-1, 2, -3, 4});
  hx_stream* stream = nullptr;
  REQUIRE(DirectPlugin::outcome(api.streams->create(device0, &stream)).code == HX_OK);

  const View in(buffer, 256, device0, {2, 2});
  const View out(buffer, 512, device0, {2, 2});
  REQUIRE(relu.compute(device0, stream, {in}, {out}).code == HX_OK);
  // The kernel runs on the stream's worker: the download (NULL stream) is not ordered after it.
  REQUIRE(DirectPlugin::outcome(api.streams->synchronize(device0, stream)).code == HX_OK);
  CHECK(plugin.download(device0, buffer, 512, 4) == std::vector<float>{0, 2, 0, 4});

  std::vector<float> host(4);
  const View on_host(reinterpret_cast<hx_buffer*>(host.data()), 0, device0, {2, 2});
  const View other_device(elsewhere, 0, device1, {2, 2});
  const View claims_device0(elsewhere, 0, device0, {2, 2});
  const View past_the_end(buffer, 768, device0, {2, 40});
  const View misaligned(buffer, 4, device0, {2, 2});
  const View strided(buffer, 0, device0, {2, 2}, {0, 1});
  const View as_f64(buffer, 0, device0, {2}, {}, HX_DTYPE_F64);
  int not_a_handle = 0;
  struct Refused {
    const char* what;
    Outcome outcome;
    const char* says;
  };
  const Refused refused[] = {
      {"a host pointer as input", relu.compute(device0, stream, {on_host}, {out}),
       "is not a live buffer of the sim plugin"},
      {"a host pointer as output", relu.compute(device0, stream, {in}, {on_host}),
       "Relu: output 0's elements"},
      {"an input on another device", relu.compute(device0, stream, {other_device}, {out}),
       "Relu: input 0 lives on device"},
      {"another device's buffer", relu.compute(device0, stream, {claims_device0}, {out}),
       "belongs to simulated GPU device 1, not to simulated GPU device 0"},
      {"elements past the buffer's end", relu.compute(device0, stream, {past_the_end}, {out}),
       "runs past the end of buffer"},
      {"an offset off the device's alignment", relu.compute(device0, stream, {misaligned}, {out}),
       "byte_offset 4, not a multiple of the 256-byte alignment"},
      {"a repeated input where the op does not broadcast",
       relu.compute(device0, stream, {strided}, {out}), "Relu: input 0 is not dense"},
      {"a float64 operand", relu.compute(device0, stream, {as_f64}, {out}),
       "input 0 is float64; the sim kernels take float32"},
      {"an unknown stream",
       relu.compute(device0, reinterpret_cast<hx_stream*>(&not_a_handle), {in}, {out}),
       "is not a live stream"},
      {"an unknown device",
       relu.compute(reinterpret_cast<hx_device*>(&not_a_handle), stream, {in}, {out}),
       "is not a device of the sim plugin"},
  };
  for (const Refused& r : refused) {
    INFO(r.what);
    CHECK(r.outcome.code == HX_INVALID_ARGUMENT);
    CHECK_THAT(r.outcome.message, Catch::Contains(r.says));
  }

  api.streams->destroy(device0, stream);
  api.deallocate(device0, buffer, 1024);
  api.deallocate(device1, elsewhere, 1024);
}

TEST_CASE("Directly: the sim MatMul declines transpose_a at create and non-matrices at check",
          "[sim][direct]") {
  const DirectPlugin plugin(kSim, kTwoGpus);
  REQUIRE(plugin.init_outcome().code == HX_OK);
  hx_device* const device = plugin.device(0);
  const hxrt_test::RegisteredKernel& matmul = plugin.kernel("MatMul");
  REQUIRE(matmul.def.create != nullptr);
  REQUIRE(matmul.def.check != nullptr);
  REQUIRE(matmul.def.destroy != nullptr);

  SECTION("transpose_a: declined for every call of the combination") {
    Attributes attributes;
    attributes.bools["transpose_a"] = true;
    const KernelInstance declined(matmul, device, kF32x2, kF32, attributes);
    CHECK(declined.created().code == HX_UNIMPLEMENTED);
    CHECK(declined.created().message ==
          "MatMul on the sim plugin: transpose_a is not supported (transpose_b is)");
  }
  SECTION("rank 3: declined by check, before any buffer exists") {
    KernelInstance instance(matmul, device, kF32x2, kF32);
    REQUIRE(instance.created().code == HX_OK);
    const View a(nullptr, 0, device, {2, 2, 3});
    const View b(nullptr, 0, device, {2, 3, 2});
    const View c(nullptr, 0, device, {2, 2, 2});
    const Outcome got = instance.check(device, {a, b}, {c});
    CHECK(got.code == HX_UNIMPLEMENTED);
    CHECK(got.message ==
          "MatMul on the sim plugin: only matrices (rank 2) are supported, got ranks 3, 3 -> 3");
    const View matrix_a(nullptr, 0, device, {2, 3});
    const View matrix_b(nullptr, 0, device, {3, 2});
    const View matrix_c(nullptr, 0, device, {2, 2});
    CHECK(instance.check(device, {matrix_a, matrix_b}, {matrix_c}).code == HX_OK);
  }
  SECTION("transpose_b: read at create, so the calls need no attributes") {
    Attributes attributes;
    attributes.bools["transpose_b"] = true;
    KernelInstance instance(matmul, device, kF32x2, kF32, attributes);
    REQUIRE(instance.created().code == HX_OK);
    hx_buffer* buffer = plugin.allocate(device, 4096, 256);
    plugin.upload(device, buffer, 256, {1, 2, 3, 4, 5, 6});     // a: 2 x 3
    plugin.upload(device, buffer, 512, {1, 0, 1, 0, 1, 0});     // b: 2 x 3, used as b^T
    const View a(buffer, 256, device, {2, 3});
    const View b(buffer, 512, device, {2, 3});
    const View c(buffer, 768, device, {2, 2});
    REQUIRE(instance.compute(device, nullptr, {a, b}, {c}).code == HX_OK);
    CHECK(plugin.download(device, buffer, 768, 4) == std::vector<float>{4, 2, 10, 5});
    plugin.api().deallocate(device, buffer, 4096);
  }
}

TEST_CASE("Directly: a sim Fill instance is made once and computes many calls", "[sim][direct]") {
  const DirectPlugin plugin(kSim, kTwoGpus);
  REQUIRE(plugin.init_outcome().code == HX_OK);
  hx_device* const device = plugin.device(0);
  hx_buffer* buffer = plugin.allocate(device, 4096, 256);
  {
    Attributes attributes;
    attributes.floats["value"] = 2.5;
    KernelInstance fill(plugin.kernel("Fill"), device, {}, kF32, attributes);
    REQUIRE(fill.created().code == HX_OK);
    for (const uint64_t offset : {0, 256, 1024}) {
      const View out(buffer, offset, device, {3});
      REQUIRE(fill.compute(device, nullptr, {}, {out}).code == HX_OK);
      CHECK(plugin.download(device, buffer, offset, 3) == std::vector<float>{2.5, 2.5, 2.5});
    }
  }
  const KernelInstance without_value(plugin.kernel("Fill"), device, {}, kF32);
  CHECK(without_value.created().code == HX_INVALID_ARGUMENT);
  CHECK(without_value.created().message == "Fill: missing required attribute 'value' (a float)");
  plugin.api().deallocate(device, buffer, 4096);
}

TEST_CASE("Directly: sim Add and Mul read broadcast inputs through their strides",
          "[sim][direct]") {
  const DirectPlugin plugin(kSim, kTwoGpus);
  REQUIRE(plugin.init_outcome().code == HX_OK);
  hx_device* const device = plugin.device(0);
  hx_buffer* buffer = plugin.allocate(device, 4096, 256);
  KernelInstance add(plugin.kernel("Add"), device, kF32x2, kF32);
  KernelInstance mul(plugin.kernel("Mul"), device, kF32x2, kF32);

  SECTION("[2,3] + [3]") {
    plugin.upload(device, buffer, 256, {1, 2, 3, 4, 5, 6});
    plugin.upload(device, buffer, 512, {10, 20, 30});
    const View x(buffer, 256, device, {2, 3});
    const View y(buffer, 512, device, {2, 3}, {0, 1});
    const View out(buffer, 768, device, {2, 3});
    REQUIRE(add.compute(device, nullptr, {x, y}, {out}).code == HX_OK);
    CHECK(plugin.download(device, buffer, 768, 6) ==
          std::vector<float>{11, 22, 33, 14, 25, 36});
  }
  SECTION("[2,1] * [1,3]") {
    plugin.upload(device, buffer, 256, {2, 3});
    plugin.upload(device, buffer, 512, {1, 10, 100});
    const View x(buffer, 256, device, {2, 3}, {1, 0});
    const View y(buffer, 512, device, {2, 3}, {0, 1});
    const View out(buffer, 768, device, {2, 3});
    REQUIRE(mul.compute(device, nullptr, {x, y}, {out}).code == HX_OK);
    CHECK(plugin.download(device, buffer, 768, 6) ==
          std::vector<float>{2, 20, 200, 3, 30, 300});
  }
  SECTION("a scalar + [4]") {
    plugin.upload(device, buffer, 256, {0.5});
    plugin.upload(device, buffer, 512, {1, 2, 3, 4});
    const View x(buffer, 256, device, {4}, {0});
    const View y(buffer, 512, device, {4});
    const View out(buffer, 768, device, {4});
    REQUIRE(add.compute(device, nullptr, {x, y}, {out}).code == HX_OK);
    CHECK(plugin.download(device, buffer, 768, 4) == std::vector<float>{1.5, 2.5, 3.5, 4.5});
  }
  SECTION("an input that does not arrive at the output's shape is refused") {
    const View x(buffer, 256, device, {3});
    const View y(buffer, 512, device, {2, 3}, {0, 1});
    const View out(buffer, 768, device, {2, 3});
    const Outcome got = add.compute(device, nullptr, {x, y}, {out});
    CHECK(got.code == HX_INVALID_ARGUMENT);
    CHECK_THAT(got.message, Catch::Contains("do not arrive broadcast to the output's rank"));
  }
  plugin.api().deallocate(device, buffer, 4096);
}
