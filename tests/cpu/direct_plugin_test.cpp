// The CPU plugin through its 2.0 table, with a fake core (tests/support/direct_plugin.hpp):
// what its device declares, host buffers addressed at (buffer, offset), kernels computing at
// non-zero offsets, instances that read their attributes at create, MatMul's check, and the
// element-wise kernels reading broadcast inputs through their strides.
#include <catch2/catch.hpp>

#include <climits>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <hxrt/plugin_vocabulary.h>

#include "direct_plugin.hpp"

using hxrt_test::Attributes;
using hxrt_test::DirectPlugin;
using hxrt_test::KernelInstance;
using hxrt_test::Outcome;
using hxrt_test::View;

namespace {

constexpr const char* kCpu = "libhx_cpu.so";
const std::vector<int32_t> kF32 = {HX_DTYPE_F32};
const std::vector<int32_t> kF32x2 = {HX_DTYPE_F32, HX_DTYPE_F32};

template <class T>
std::vector<T> read(hx_buffer* buffer, uint64_t offset, size_t count) {
  std::vector<T> values(count);
  std::memcpy(values.data(), reinterpret_cast<char*>(buffer) + offset, count * sizeof(T));
  return values;
}

template <class T>
void write(hx_buffer* buffer, uint64_t offset, const std::vector<T>& values) {
  std::memcpy(reinterpret_cast<char*>(buffer) + offset, values.data(), values.size() * sizeof(T));
}

// A plugin, its device and one 4 KiB buffer.
struct Cpu {
  Cpu() : plugin(kCpu, "{}") {
    REQUIRE(plugin.init_outcome().code == HX_OK);
    device = plugin.device(0);
    buffer = plugin.allocate(device, 4096, 64);
  }
  ~Cpu() { plugin.api().deallocate(device, buffer, 4096); }
  DirectPlugin plugin;
  hx_device* device = nullptr;
  hx_buffer* buffer = nullptr;
};

}  // namespace

TEST_CASE("Directly: the CPU device declares host memory, the CPU class, 64 bytes and no "
          "streams",
          "[cpu][direct]") {
  const Cpu cpu;
  const hx_device_properties props = cpu.plugin.properties(cpu.device);
  CHECK(props.memory_kind == HX_MEMORY_HOST);
  CHECK(props.placement_class == HX_PLACEMENT_CPU);
  CHECK(props.max_allocation == 0);
  CHECK(props.alignment == 64);
  CHECK(cpu.plugin.api().memory_info != nullptr);
  CHECK(cpu.plugin.api().streams == nullptr);  // synchronous: every call completes at once
  CHECK(cpu.plugin.api().events == nullptr);
  CHECK(cpu.plugin.api().host_memory == nullptr);
  CHECK(reinterpret_cast<uintptr_t>(cpu.buffer) % 64 == 0);
}

TEST_CASE("Directly: under a 2.6 core the CPU plugin registers no dtype of 2.7, nor NonZero, "
          "the fused ops, the blocked ones, MatMulBias or MultiHeadAttention",
          "[cpu][direct]") {
  // A 2.6 core refuses a registration naming int8 ... uint64; the plugin leaves them out.
  const DirectPlugin older(kCpu, "{}", HX_ABI_VERSION_MAJOR, 6);
  hxrt_test::require_ok(older.init_outcome());
  const DirectPlugin current(kCpu);
  // Every op is still there but NonZero (cores define it from 2.8 on), the fused ops (2.9)
  // the blocked ones (2.10), MatMulBias (2.11) and MultiHeadAttention (2.12).
  std::vector<const hxrt_test::RegisteredKernel*> current_kernels;
  for (const hxrt_test::RegisteredKernel& kernel : current.kernels()) {
    if (kernel.op != "NonZero" && kernel.op.rfind("Fused", 0) != 0 &&
        kernel.op.rfind("Blocked", 0) != 0 && kernel.op != "MatMulBias" &&
        kernel.op != "MultiHeadAttention") {
      current_kernels.push_back(&kernel);
    }
  }
  REQUIRE(older.kernels().size() == current_kernels.size());
  for (size_t i = 0; i < older.kernels().size(); ++i) {
    const hxrt_test::RegisteredKernel& kernel = older.kernels()[i];
    INFO(kernel.op);
    for (int32_t dtype : kernel.dtypes) CHECK(hx_dtype_abi_minor(dtype) <= 6);
    std::vector<int32_t> known;
    for (int32_t dtype : current_kernels[i]->dtypes) {
      if (hx_dtype_abi_minor(dtype) <= 6) known.push_back(dtype);
    }
    CHECK(kernel.dtypes == known);
  }
  CHECK(current.kernel("Add").dtypes.size() == 12);
  CHECK(older.kernel("Add").dtypes.size() == 6);
}

TEST_CASE("Directly: CPU buffers are host addresses, copied and set at offsets",
          "[cpu][direct]") {
  const Cpu cpu;
  const hx_plugin_api& api = cpu.plugin.api();
  const auto code = [](hx_status* status) { return DirectPlugin::outcome(status).code; };
  const std::vector<float> values = {1, 2, 3, 4};
  cpu.plugin.upload(cpu.device, cpu.buffer, 128, values);
  CHECK(read<float>(cpu.buffer, 128, 4) == values);  // the handle is the buffer's address
  REQUIRE(code(api.copy_device_to_device(cpu.device, nullptr, cpu.buffer, 1024, cpu.device,
                                         cpu.buffer, 128, 16)) == HX_OK);
  REQUIRE(code(api.memset(cpu.device, nullptr, cpu.buffer, 1028, 0, 8)) == HX_OK);
  CHECK(cpu.plugin.download(cpu.device, cpu.buffer, 1024, 4) == std::vector<float>{1, 0, 0, 4});
  // Size 0 succeeds whatever the other arguments.
  CHECK(code(api.copy_host_to_device(cpu.device, nullptr, nullptr, 7, nullptr, 0)) == HX_OK);
}

TEST_CASE("Directly: CPU element-wise kernels read broadcast inputs through their strides",
          "[cpu][direct]") {
  const Cpu cpu;
  hx_device* const device = cpu.device;
  KernelInstance add(cpu.plugin.kernel("Add"), device, kF32x2, kF32);
  KernelInstance sub(cpu.plugin.kernel("Sub"), device, kF32x2, kF32);
  KernelInstance mul(cpu.plugin.kernel("Mul"), device, kF32x2, kF32);
  const View out(cpu.buffer, 1024, device, {2, 3});

  SECTION("same shapes: the dense loop") {
    write<float>(cpu.buffer, 64, {1, 2, 3, 4, 5, 6});
    write<float>(cpu.buffer, 512, {6, 5, 4, 3, 2, 1});
    REQUIRE(sub.compute(device, nullptr, {View(cpu.buffer, 64, device, {2, 3}),
                                          View(cpu.buffer, 512, device, {2, 3})},
                        {out})
                .code == HX_OK);
    CHECK(read<float>(cpu.buffer, 1024, 6) == std::vector<float>{-5, -3, -1, 1, 3, 5});
  }
  SECTION("[2,3] + [3]") {
    write<float>(cpu.buffer, 64, {1, 2, 3, 4, 5, 6});
    write<float>(cpu.buffer, 512, {10, 20, 30});
    REQUIRE(add.compute(device, nullptr, {View(cpu.buffer, 64, device, {2, 3}),
                                          View(cpu.buffer, 512, device, {2, 3}, {0, 1})},
                        {out})
                .code == HX_OK);
    CHECK(read<float>(cpu.buffer, 1024, 6) == std::vector<float>{11, 22, 33, 14, 25, 36});
  }
  SECTION("[2,1] * [1,3]") {
    write<float>(cpu.buffer, 64, {2, 3});
    write<float>(cpu.buffer, 512, {1, 10, 100});
    REQUIRE(mul.compute(device, nullptr, {View(cpu.buffer, 64, device, {2, 3}, {1, 0}),
                                          View(cpu.buffer, 512, device, {2, 3}, {0, 1})},
                        {out})
                .code == HX_OK);
    CHECK(read<float>(cpu.buffer, 1024, 6) == std::vector<float>{2, 20, 200, 3, 30, 300});
  }
  SECTION("a scalar - [4], and [4] - a scalar") {
    write<float>(cpu.buffer, 64, {10});
    write<float>(cpu.buffer, 512, {1, 2, 3, 4});
    const View scalar(cpu.buffer, 64, device, {4}, {0});
    const View vector(cpu.buffer, 512, device, {4});
    const View out4(cpu.buffer, 1024, device, {4});
    REQUIRE(sub.compute(device, nullptr, {scalar, vector}, {out4}).code == HX_OK);
    CHECK(read<float>(cpu.buffer, 1024, 4) == std::vector<float>{9, 8, 7, 6});
    REQUIRE(sub.compute(device, nullptr, {vector, scalar}, {out4}).code == HX_OK);
    CHECK(read<float>(cpu.buffer, 1024, 4) == std::vector<float>{-9, -8, -7, -6});
  }
  SECTION("integer division by a repeated zero is an error, not a signal") {
    const std::vector<int32_t> i32x2 = {HX_DTYPE_I32, HX_DTYPE_I32};
    KernelInstance div(cpu.plugin.kernel("Div"), device, i32x2, {HX_DTYPE_I32});
    write<int32_t>(cpu.buffer, 64, {7, 8, 9, 10, 11, 12});
    write<int32_t>(cpu.buffer, 512, {2, 0});
    const View x(cpu.buffer, 64, device, {2, 3}, {}, HX_DTYPE_I32);
    const View y(cpu.buffer, 512, device, {2, 3}, {1, 0}, HX_DTYPE_I32);
    const View quotient(cpu.buffer, 1024, device, {2, 3}, {}, HX_DTYPE_I32);
    const Outcome got = div.compute(device, nullptr, {x, y}, {quotient});
    CHECK(got.code == HX_INVALID_ARGUMENT);
    CHECK(got.message == "Div: integer division by zero");
    CHECK(read<int32_t>(cpu.buffer, 1024, 3) == std::vector<int32_t>{3, 4, 4});
  }
  SECTION("an input that does not arrive at the output's shape is refused") {
    const Outcome got = add.compute(
        device, nullptr, {View(cpu.buffer, 64, device, {3}), View(cpu.buffer, 512, device, {2, 3})},
        {out});
    CHECK(got.code == HX_INVALID_ARGUMENT);
    CHECK_THAT(got.message, Catch::Contains("do not arrive broadcast to the output's rank 2"));
  }
}

TEST_CASE("Directly: CPU MatMul reads its transposes at create and declines what BLAS cannot take",
          "[cpu][direct]") {
  const Cpu cpu;
  hx_device* const device = cpu.device;
  const hxrt_test::RegisteredKernel& matmul = cpu.plugin.kernel("MatMul");
  Attributes attributes;
  attributes.bools["transpose_a"] = true;
  KernelInstance transposed(matmul, device, kF32x2, kF32, attributes);
  REQUIRE(transposed.created().code == HX_OK);

  // a is stored 3 x 2 and used as its transpose; the calls carry no attributes at all.
  write<float>(cpu.buffer, 64, {1, 4, 2, 5, 3, 6});
  write<float>(cpu.buffer, 256, {1, 0, 0, 1, 1, 1});
  const View a(cpu.buffer, 64, device, {3, 2});
  const View b(cpu.buffer, 256, device, {3, 2});
  const View c(cpu.buffer, 1024, device, {2, 2});
  for (int call = 0; call < 3; ++call) {
    REQUIRE(transposed.compute(device, nullptr, {a, b}, {c}).code == HX_OK);
    CHECK(read<float>(cpu.buffer, 1024, 4) == std::vector<float>{4, 5, 10, 11});
  }

  const View huge_a(nullptr, 0, device, {int64_t{INT_MAX} + 1, 2});
  const View huge_b(nullptr, 0, device, {2, 2});
  const View huge_c(nullptr, 0, device, {int64_t{INT_MAX} + 1, 2});
  const Outcome declined = transposed.check(device, {huge_a, huge_b}, {huge_c});
  CHECK(declined.code == HX_UNIMPLEMENTED);
  CHECK(declined.message ==
        "MatMul on CPU: extent 2147483648 of input 0 exceeds the BLAS interface's limit of "
        "2147483647");
  CHECK(transposed.check(device, {a, b}, {c}).code == HX_OK);
}

TEST_CASE("Directly: CPU MatMul reads its operands at their row strides, on either path",
          "[cpu][direct]") {
  const Cpu cpu;
  hx_device* const device = cpu.device;
  KernelInstance matmul(cpu.plugin.kernel("MatMul"), device, kF32x2, kF32);
  REQUIRE(matmul.created().code == HX_OK);
  // m x k by k x n with rows of a and b padded by 3 elements: 2x2x2 takes the small path,
  // 8x8x8 (work 512) OpenBLAS.
  const int64_t n = GENERATE(2, 8);
  CAPTURE(n);
  const int64_t padded = n + 3;
  std::vector<float> a(static_cast<size_t>(n * padded), -1000), b = a;
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      a[static_cast<size_t>(i * padded + j)] = static_cast<float>(i + 2 * j);
      b[static_cast<size_t>(i * padded + j)] = static_cast<float>(3 * i - j);
    }
  }
  write<float>(cpu.buffer, 0, a);
  write<float>(cpu.buffer, 1024, b);
  const View a_view(cpu.buffer, 0, device, {n, n}, {padded, 1});
  const View b_view(cpu.buffer, 1024, device, {n, n}, {padded, 1});
  const View c_view(cpu.buffer, 2048, device, {n, n});
  REQUIRE(matmul.compute(device, nullptr, {a_view, b_view}, {c_view}).code == HX_OK);
  const std::vector<float> c = read<float>(cpu.buffer, 2048, static_cast<size_t>(n * n));
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      float expected = 0;  // small integers: exact in float
      for (int64_t p = 0; p < n; ++p) expected += static_cast<float>((i + 2 * p) * (3 * p - j));
      CHECK(c[static_cast<size_t>(i * n + j)] == expected);
    }
  }
  // Columns apart (a column-major view) or rows that overlap: refused, not misread.
  const Outcome column_major =
      matmul.compute(device, nullptr, {View(cpu.buffer, 0, device, {n, n}, {1, n}), b_view},
                     {c_view});
  CHECK(column_major.code == HX_INVALID_ARGUMENT);
  CHECK_THAT(column_major.message,
             Catch::StartsWith("MatMul: input a has strides [1, " + std::to_string(n) + "]") &&
                 Catch::Contains("needs rows of contiguous elements that do not overlap"));
  const Outcome overlapping =
      matmul.compute(device, nullptr, {a_view, View(cpu.buffer, 1024, device, {n, n}, {1, 1})},
                     {c_view});
  CHECK(overlapping.code == HX_INVALID_ARGUMENT);
  CHECK_THAT(overlapping.message, Catch::StartsWith("MatMul: input b has strides [1, 1]"));
}

TEST_CASE("Directly: CPU Sum reads its axes at create", "[cpu][direct]") {
  const Cpu cpu;
  hx_device* const device = cpu.device;
  const hxrt_test::RegisteredKernel& sum = cpu.plugin.kernel("Sum");
  write<float>(cpu.buffer, 64, {1, 2, 3, 4, 5, 6});
  const View in(cpu.buffer, 64, device, {2, 3});

  SECTION("axes [-1]") {
    Attributes attributes;
    attributes.int_lists["axes"] = {-1};
    KernelInstance rows(sum, device, kF32, kF32, attributes);
    REQUIRE(rows.created().code == HX_OK);
    REQUIRE(rows.compute(device, nullptr, {in}, {View(cpu.buffer, 1024, device, {2})}).code ==
            HX_OK);
    CHECK(read<float>(cpu.buffer, 1024, 2) == std::vector<float>{6, 15});
  }
  SECTION("no axes: every axis") {
    KernelInstance all(sum, device, kF32, kF32);
    REQUIRE(all.created().code == HX_OK);
    REQUIRE(all.compute(device, nullptr, {in}, {View(cpu.buffer, 1024, device, {})}).code ==
            HX_OK);
    CHECK(read<float>(cpu.buffer, 1024, 1) == std::vector<float>{21});
  }
  SECTION("more axes than any tensor has dimensions") {
    Attributes attributes;
    attributes.int_lists["axes"] = {0, 1, 2, 3, 4, 5, 6, 7, 0};
    const KernelInstance refused(sum, device, kF32, kF32, attributes);
    CHECK(refused.created().code == HX_INVALID_ARGUMENT);
    CHECK(refused.created().message ==
          "Sum: 9 axes given; a tensor has at most 8, each listed once");
  }
}

TEST_CASE("Directly: CPU Cast and Fill settle their conversion at create", "[cpu][direct]") {
  const Cpu cpu;
  hx_device* const device = cpu.device;
  const View out(cpu.buffer, 1024, device, {3}, {}, HX_DTYPE_I32);

  SECTION("Cast float32 to int32 truncates and saturates") {
    KernelInstance cast(cpu.plugin.kernel("Cast"), device, kF32, {HX_DTYPE_I32});
    REQUIRE(cast.created().code == HX_OK);
    write<float>(cpu.buffer, 64, {-2.7f, 1e10f, 3.5f});
    REQUIRE(cast.compute(device, nullptr, {View(cpu.buffer, 64, device, {3})}, {out}).code ==
            HX_OK);
    CHECK(read<int32_t>(cpu.buffer, 1024, 3) == std::vector<int32_t>{-2, INT32_MAX, 3});
    const Outcome other = cast.compute(device, nullptr, {View(cpu.buffer, 64, device, {3})},
                                       {View(cpu.buffer, 1024, device, {3})});
    CHECK(other.code == HX_INVALID_ARGUMENT);
    CHECK(other.message ==
          "Cast: the instance was made for float32 to int32, but the call is float32 to float32");
  }
  SECTION("Fill int32 with 3.9 fills 3, at every call") {
    Attributes attributes;
    attributes.floats["value"] = 3.9;
    KernelInstance fill(cpu.plugin.kernel("Fill"), device, {}, {HX_DTYPE_I32}, attributes);
    REQUIRE(fill.created().code == HX_OK);
    for (int call = 0; call < 2; ++call) {
      write<int32_t>(cpu.buffer, 1024, {0, 0, 0});
      REQUIRE(fill.compute(device, nullptr, {}, {out}).code == HX_OK);
      CHECK(read<int32_t>(cpu.buffer, 1024, 3) == std::vector<int32_t>{3, 3, 3});
    }
  }
}
