// Every kernel of the OpenCL plugin against a host reference, with tensors at byte offsets
// inside shared buffers (as the core's allocator places them), broadcast inputs with stride 0,
// and one instance serving calls from several threads.
#include <catch2/catch.hpp>

#include <hxrt/plugin_vocabulary.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <thread>
#include <vector>

#include "opencl_harness.hpp"

namespace opencl_test {
namespace {

// Tensors placed one after another in one buffer, each at a non-zero multiple of the device's
// alignment.
class Arena {
 public:
  explicit Arena(const DirectPlugin& plugin) : buffer_(plugin, plugin.device(), 1 << 24) {
    hx_device_properties props{};
    props.struct_size = HX_DEVICE_PROPERTIES_STRUCT_SIZE;
    REQUIRE(DirectPlugin::outcome(plugin.api().device_properties(plugin.device(), &props))
                .code == HX_OK);
    alignment_ = props.alignment;
    next_ = alignment_;
  }

  template <class T>
  Tensor place(int32_t dtype, std::vector<int64_t> shape, const std::vector<T>& values,
               std::vector<int64_t> strides = {}) {
    const uint64_t offset = next_;
    next_ += (values.size() * sizeof(T) + alignment_) / alignment_ * alignment_ + alignment_;
    REQUIRE(next_ <= (1u << 24));
    if (!values.empty()) buffer_.write(offset, values.data(), values.size() * sizeof(T));
    return Tensor(buffer_, offset, dtype, std::move(shape), std::move(strides));
  }
  Tensor floats(std::vector<int64_t> shape, const std::vector<float>& values,
                std::vector<int64_t> strides = {}) {
    return place(HX_DTYPE_F32, std::move(shape), values, std::move(strides));
  }
  // An output of `count` elements of `T`, filled with a marker value the kernel must replace.
  template <class T>
  Tensor output(int32_t dtype, std::vector<int64_t> shape, size_t count) {
    return place(dtype, std::move(shape), std::vector<T>(count, T(77)));
  }
  template <class T>
  std::vector<T> read(const Tensor& tensor, size_t count) const {
    return buffer_.read_elements<T>(tensor.byte_offset, count);
  }

 private:
  Buffer buffer_;
  uint64_t alignment_ = 1;
  uint64_t next_ = 0;
};

std::vector<float> sequence(size_t count, float start, float step) {
  std::vector<float> values(count);
  for (size_t i = 0; i < count; ++i) values[i] = start + step * static_cast<float>(i);
  return values;
}

struct Stream {
  explicit Stream(const DirectPlugin& plugin, bool wanted) : plugin(plugin) {
    if (!wanted) return;
    REQUIRE(DirectPlugin::outcome(plugin.api().streams->create(plugin.device(), &handle)).code ==
            HX_OK);
  }
  ~Stream() { plugin.api().streams->destroy(plugin.device(), handle); }
  const DirectPlugin& plugin;
  hx_stream* handle = nullptr;
};

TEST_CASE("OpenCL MatMul multiplies with each transpose, at offsets", "[opencl]") {
  const DirectPlugin plugin;
  REQUIRE(plugin.init_outcome().code == HX_OK);
  const bool transpose_a = GENERATE(false, true);
  const bool transpose_b = GENERATE(false, true);
  const Stream stream(plugin, GENERATE(false, true));
  Arena arena(plugin);
  // Not multiples of the 16 x 16 tiles, so the edges are exercised.
  const int64_t m = 37, k = 19, n = 23;
  const std::vector<float> a = sequence(static_cast<size_t>(m * k), -3.0f, 0.25f);
  const std::vector<float> b = sequence(static_cast<size_t>(k * n), 2.0f, -0.125f);
  const auto a_at = [&](int64_t row, int64_t inner) {
    return a[static_cast<size_t>(transpose_a ? inner * m + row : row * k + inner)];
  };
  const auto b_at = [&](int64_t inner, int64_t column) {
    return b[static_cast<size_t>(transpose_b ? column * k + inner : inner * n + column)];
  };
  std::vector<float> expected(static_cast<size_t>(m * n));
  for (int64_t row = 0; row < m; ++row) {
    for (int64_t column = 0; column < n; ++column) {
      double sum = 0;
      for (int64_t inner = 0; inner < k; ++inner) sum += a_at(row, inner) * b_at(inner, column);
      expected[static_cast<size_t>(row * n + column)] = static_cast<float>(sum);
    }
  }
  const Tensor a_tensor = arena.floats(transpose_a ? std::vector<int64_t>{k, m}
                                                   : std::vector<int64_t>{m, k},
                                       a);
  const Tensor b_tensor = arena.floats(transpose_b ? std::vector<int64_t>{n, k}
                                                   : std::vector<int64_t>{k, n},
                                       b);
  const Tensor c = arena.output<float>(HX_DTYPE_F32, {m, n}, expected.size());
  Attributes attributes;
  attributes.bools = {{"transpose_a", transpose_a}, {"transpose_b", transpose_b}};
  const Outcome got =
      run_kernel(plugin, "MatMul", {a_tensor, b_tensor}, {c}, attributes, stream.handle);
  REQUIRE(got.message.empty());
  check_close(arena.read<float>(c, expected.size()), expected);
}

TEST_CASE("OpenCL MatMul refuses shapes that do not agree", "[opencl]") {
  const DirectPlugin plugin;
  REQUIRE(plugin.init_outcome().code == HX_OK);
  Arena arena(plugin);
  const Tensor a = arena.floats({2, 3}, sequence(6, 1, 1));
  const Tensor b = arena.floats({4, 2}, sequence(8, 1, 1));
  const Tensor c = arena.output<float>(HX_DTYPE_F32, {2, 2}, 4);
  const Outcome got = run_kernel(plugin, "MatMul", {a, b}, {c});
  CHECK(got.code == HX_INVALID_ARGUMENT);
  CHECK_THAT(got.message, Catch::Contains("do not agree"));
}

struct BinaryCase {
  const char* label;
  std::vector<int64_t> a_stored, a_strides, b_stored, b_strides, out;
  // The flat index of a and of b that output element (row, column) reads.
  std::function<size_t(int64_t, int64_t)> a_index, b_index;
};

TEST_CASE("OpenCL Add, Sub, Mul and Div broadcast as NumPy does", "[opencl]") {
  const DirectPlugin plugin;
  REQUIRE(plugin.init_outcome().code == HX_OK);
  const std::vector<BinaryCase> cases = {
      {"[2,3] and [2,3]", {2, 3}, {3, 1}, {2, 3}, {3, 1}, {2, 3},
       [](int64_t r, int64_t c) { return static_cast<size_t>(r * 3 + c); },
       [](int64_t r, int64_t c) { return static_cast<size_t>(r * 3 + c); }},
      {"[2,3] and [3]", {2, 3}, {3, 1}, {3}, {0, 1}, {2, 3},
       [](int64_t r, int64_t c) { return static_cast<size_t>(r * 3 + c); },
       [](int64_t, int64_t c) { return static_cast<size_t>(c); }},
      {"[2,1] and [1,3]", {2}, {1, 0}, {3}, {0, 1}, {2, 3},
       [](int64_t r, int64_t) { return static_cast<size_t>(r); },
       [](int64_t, int64_t c) { return static_cast<size_t>(c); }},
      {"[] and [4]", {1}, {0}, {4}, {1}, {4},
       [](int64_t, int64_t) { return size_t{0}; },
       [](int64_t, int64_t c) { return static_cast<size_t>(c); }}};
  const struct {
    const char* op;
    float (*apply)(float, float);
  } ops[] = {{"Add", [](float x, float y) { return x + y; }},
             {"Sub", [](float x, float y) { return x - y; }},
             {"Mul", [](float x, float y) { return x * y; }},
             {"Div", [](float x, float y) { return x / y; }}};
  for (const auto& op : ops) {
    for (const BinaryCase& broadcast : cases) {
      INFO(op.op << " of " << broadcast.label);
      Arena arena(plugin);
      const auto elements = [](const std::vector<int64_t>& shape) {
        size_t count = 1;
        for (int64_t extent : shape) count *= static_cast<size_t>(extent);
        return count;
      };
      const std::vector<float> a = sequence(elements(broadcast.a_stored), 1.5f, 1.0f);
      const std::vector<float> b = sequence(elements(broadcast.b_stored), -2.0f, 0.75f);
      // The views are at the output's rank, as the core hands broadcast inputs over.
      const Tensor a_view = arena.floats(broadcast.out, a, broadcast.a_strides);
      const Tensor b_view = arena.floats(broadcast.out, b, broadcast.b_strides);
      const size_t count = elements(broadcast.out);
      const Tensor out = arena.output<float>(HX_DTYPE_F32, broadcast.out, count);
      const int64_t rows = broadcast.out.size() == 2 ? broadcast.out[0] : 1;
      const int64_t columns = broadcast.out.back();
      std::vector<float> expected;
      for (int64_t row = 0; row < rows; ++row) {
        for (int64_t column = 0; column < columns; ++column) {
          expected.push_back(op.apply(a[broadcast.a_index(row, column)],
                                      b[broadcast.b_index(row, column)]));
        }
      }
      const Outcome got = run_kernel(plugin, op.op, {a_view, b_view}, {out});
      REQUIRE(got.message.empty());
      check_close(arena.read<float>(out, count), expected);
    }
  }
}

TEST_CASE("OpenCL Relu keeps positives and NaN and zeroes negatives", "[opencl]") {
  const DirectPlugin plugin;
  REQUIRE(plugin.init_outcome().code == HX_OK);
  Arena arena(plugin);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const Tensor in = arena.floats({5}, {-2.0f, -0.0f, 0.5f, 3.0f, nan});
  const Tensor out = arena.output<float>(HX_DTYPE_F32, {5}, 5);
  REQUIRE(run_kernel(plugin, "Relu", {in}, {out}).message.empty());
  const std::vector<float> got = arena.read<float>(out, 5);
  CHECK(got[0] == 0.0f);
  CHECK(got[1] == 0.0f);
  CHECK(got[2] == 0.5f);
  CHECK(got[3] == 3.0f);
  CHECK(std::isnan(got[4]));
}

TEST_CASE("OpenCL AddN adds any number of inputs", "[opencl]") {
  const DirectPlugin plugin;
  REQUIRE(plugin.init_outcome().code == HX_OK);
  const size_t inputs = GENERATE(1, 2, 3);
  Arena arena(plugin);
  std::vector<Tensor> tensors;
  std::vector<float> expected(6, 0.0f);
  for (size_t input = 0; input < inputs; ++input) {
    const std::vector<float> values = sequence(6, static_cast<float>(input) * 10, 1.0f);
    tensors.push_back(arena.floats({2, 3}, values));
    for (size_t i = 0; i < 6; ++i) expected[i] += values[i];
  }
  const Tensor out = arena.output<float>(HX_DTYPE_F32, {2, 3}, 6);
  REQUIRE(run_kernel(plugin, "AddN", tensors, {out}).message.empty());
  check_close(arena.read<float>(out, 6), expected);
}

TEST_CASE("OpenCL Sum reduces the axes it is given", "[opencl]") {
  const DirectPlugin plugin;
  REQUIRE(plugin.init_outcome().code == HX_OK);
  const std::vector<float> input = sequence(24, 1.0f, 1.0f);  // [2, 3, 4]
  const auto at = [&](int64_t i, int64_t j, int64_t l) {
    return input[static_cast<size_t>(i * 12 + j * 4 + l)];
  };
  struct SumCase {
    const char* label;
    bool axes_given;
    std::vector<int64_t> axes;
    std::vector<int64_t> out_shape;  // keep_dims only changes this, which the core computes
    std::vector<float> expected;
  };
  std::vector<SumCase> cases = {{"all axes", false, {}, {}, {300.0f}},
                                {"no axes", true, {}, {2, 3, 4}, input},
                                {"axis 1", true, {1}, {2, 4}, {}},
                                {"axes 0 and 2", true, {0, 2}, {3}, {}},
                                {"axis -1, kept", true, {-1}, {2, 3, 1}, {}}};
  for (int64_t i = 0; i < 2; ++i) {
    for (int64_t l = 0; l < 4; ++l) cases[2].expected.push_back(at(i, 0, l) + at(i, 1, l) + at(i, 2, l));
  }
  for (int64_t j = 0; j < 3; ++j) {
    float sum = 0;
    for (int64_t i = 0; i < 2; ++i) {
      for (int64_t l = 0; l < 4; ++l) sum += at(i, j, l);
    }
    cases[3].expected.push_back(sum);
  }
  for (int64_t i = 0; i < 2; ++i) {
    for (int64_t j = 0; j < 3; ++j) {
      cases[4].expected.push_back(at(i, j, 0) + at(i, j, 1) + at(i, j, 2) + at(i, j, 3));
    }
  }
  for (const SumCase& sum : cases) {
    INFO(sum.label);
    Arena arena(plugin);
    const Tensor in = arena.floats({2, 3, 4}, input);
    const Tensor out = arena.output<float>(HX_DTYPE_F32, sum.out_shape, sum.expected.size());
    Attributes attributes;
    if (sum.axes_given) attributes.int_lists["axes"] = sum.axes;
    REQUIRE(run_kernel(plugin, "Sum", {in}, {out}, attributes).message.empty());
    check_close(arena.read<float>(out, sum.expected.size()), sum.expected);
  }
}

TEST_CASE("OpenCL Sum of an empty axis is zero", "[opencl]") {
  const DirectPlugin plugin;
  REQUIRE(plugin.init_outcome().code == HX_OK);
  Arena arena(plugin);
  const Tensor in = arena.floats({3, 0}, std::vector<float>{});
  const Tensor out = arena.output<float>(HX_DTYPE_F32, {3}, 3);
  Attributes attributes;
  attributes.int_lists["axes"] = {1};
  REQUIRE(run_kernel(plugin, "Sum", {in}, {out}, attributes).message.empty());
  CHECK(arena.read<float>(out, 3) == std::vector<float>{0.0f, 0.0f, 0.0f});
}

TEST_CASE("OpenCL Fill writes its value, read once at create", "[opencl]") {
  const DirectPlugin plugin;
  REQUIRE(plugin.init_outcome().code == HX_OK);
  Arena arena(plugin);
  const Tensor before = arena.floats({3}, {1.0f, 2.0f, 3.0f});
  const Tensor out = arena.output<float>(HX_DTYPE_F32, {5, 7}, 35);
  Attributes attributes;
  attributes.floats["value"] = 3.25;
  REQUIRE(run_kernel(plugin, "Fill", {}, {out}, attributes).message.empty());
  CHECK(arena.read<float>(out, 35) == std::vector<float>(35, 3.25f));
  CHECK(arena.read<float>(before, 3) == std::vector<float>{1.0f, 2.0f, 3.0f});

  const Outcome missing = run_kernel(plugin, "Fill", {}, {out});
  CHECK(missing.code == HX_INVALID_ARGUMENT);
  CHECK_THAT(missing.message, Catch::Contains("missing required attribute 'value'"));
}

TEST_CASE("OpenCL Cast converts float32 as the CPU plugin does", "[opencl]") {
  const DirectPlugin plugin;
  REQUIRE(plugin.init_outcome().code == HX_OK);
  Arena arena(plugin);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> values = {1.9f, -1.9f, nan, 3e9f, -3e9f, 0.0f, 1e19f, 65504.0f, 0.1f};
  const int64_t count = static_cast<int64_t>(values.size());
  const Tensor in = arena.floats({count}, values);
  const size_t n = values.size();

  SECTION("to int32: truncated, saturated, NaN to 0") {
    const Tensor out = arena.output<int32_t>(HX_DTYPE_I32, {count}, n);
    REQUIRE(run_kernel(plugin, "Cast", {in}, {out}).message.empty());
    const int32_t max = std::numeric_limits<int32_t>::max();
    const int32_t min = std::numeric_limits<int32_t>::min();
    CHECK(arena.read<int32_t>(out, n) ==
          std::vector<int32_t>{1, -1, 0, max, min, 0, max, 65504, 0});
  }
  SECTION("to int64") {
    const Tensor out = arena.output<int64_t>(HX_DTYPE_I64, {count}, n);
    REQUIRE(run_kernel(plugin, "Cast", {in}, {out}).message.empty());
    const int64_t max = std::numeric_limits<int64_t>::max();
    CHECK(arena.read<int64_t>(out, n) ==
          std::vector<int64_t>{1, -1, 0, 3000000000, -3000000000, 0, max, 65504, 0});
  }
  SECTION("to bool: every value but zero is true") {
    const Tensor out = arena.output<uint8_t>(HX_DTYPE_BOOL, {count}, n);
    REQUIRE(run_kernel(plugin, "Cast", {in}, {out}).message.empty());
    CHECK(arena.read<uint8_t>(out, n) == std::vector<uint8_t>{1, 1, 1, 1, 1, 0, 1, 1, 1});
  }
  SECTION("to float16: rounded to nearest even, overflow to infinity") {
    const Tensor out = arena.output<uint16_t>(HX_DTYPE_F16, {count}, n);
    REQUIRE(run_kernel(plugin, "Cast", {in}, {out}).message.empty());
    const std::vector<uint16_t> got = arena.read<uint16_t>(out, n);
    CHECK(got[0] == 0x3F9A);  // 1.9 -> 1.900390625
    CHECK(got[1] == 0xBF9A);
    CHECK((got[2] & 0x7C00) == 0x7C00);  // NaN stays NaN
    CHECK((got[2] & 0x03FF) != 0);
    CHECK(got[3] == 0x7C00);  // 3e9 -> +inf
    CHECK(got[4] == 0xFC00);
    CHECK(got[5] == 0x0000);
    CHECK(got[7] == 0x7BFF);  // the largest float16
    CHECK(got[8] == 0x2E66);  // 0.1 -> 0.0999755859375
  }
  SECTION("to float64 and float32: exact") {
    const Tensor doubles = arena.output<double>(HX_DTYPE_F64, {count}, n);
    const Outcome got = run_kernel(plugin, "Cast", {in}, {doubles});
    if (got.code == HX_UNIMPLEMENTED) {
      CHECK_THAT(got.message, Catch::Contains("no double precision"));
    } else {
      REQUIRE(got.message.empty());
      const std::vector<double> read = arena.read<double>(doubles, n);
      for (size_t i = 0; i < n; ++i) {
        if (std::isnan(values[i])) {
          CHECK(std::isnan(read[i]));
        } else {
          CHECK(read[i] == static_cast<double>(values[i]));
        }
      }
    }
    const Tensor floats = arena.output<float>(HX_DTYPE_F32, {count}, n);
    REQUIRE(run_kernel(plugin, "Cast", {in}, {floats}).message.empty());
    const std::vector<float> read = arena.read<float>(floats, n);
    for (size_t i = 0; i < n; ++i) {
      if (!std::isnan(values[i])) CHECK(read[i] == values[i]);
    }
  }
  SECTION("to bfloat16: declined at create, so the call falls back") {
    const Tensor out = arena.output<uint16_t>(HX_DTYPE_BF16, {count}, n);
    const Outcome got = run_kernel(plugin, "Cast", {in}, {out});
    CHECK(got.code == HX_UNIMPLEMENTED);
    CHECK_THAT(got.message, Catch::Contains("no float32-to-bfloat16 kernel"));
  }
}

TEST_CASE("OpenCL Identity copies its input between offsets of one buffer", "[opencl]") {
  const DirectPlugin plugin;
  REQUIRE(plugin.init_outcome().code == HX_OK);
  const Stream stream(plugin, GENERATE(false, true));
  Arena arena(plugin);
  const std::vector<float> values = sequence(33, -4.0f, 0.5f);
  const Tensor in = arena.floats({3, 11}, values);
  const Tensor out = arena.output<float>(HX_DTYPE_F32, {3, 11}, 33);
  REQUIRE(run_kernel(plugin, "Identity", {in}, {out}, {}, stream.handle).message.empty());
  CHECK(arena.read<float>(out, 33) == values);
}

TEST_CASE("One OpenCL kernel instance serves calls from several threads at once",
          "[opencl]") {
  const DirectPlugin plugin;
  REQUIRE(plugin.init_outcome().code == HX_OK);
  const hx_kernel_def& add = plugin.kernel("Add").def;
  hx_device* device = plugin.device();
  const int32_t dtypes[] = {HX_DTYPE_F32, HX_DTYPE_F32};
  const hx_kernel_create_args create_args = {HX_KERNEL_CREATE_ARGS_STRUCT_SIZE,
                                             nullptr, nullptr, device, 2, dtypes, 1, dtypes,
                                             add.user_data};
  hx_kernel_instance* instance = nullptr;
  REQUIRE(DirectPlugin::outcome(add.create(&create_args, &instance)).code == HX_OK);
  constexpr int kThreads = 4;
  constexpr int64_t kCount = 4096;
  std::vector<std::unique_ptr<Arena>> arenas;
  std::vector<Tensor> tensors;
  for (int thread = 0; thread < kThreads; ++thread) {
    arenas.push_back(std::make_unique<Arena>(plugin));
    tensors.push_back(arenas.back()->floats({kCount}, sequence(kCount, static_cast<float>(thread), 0)));
    tensors.push_back(arenas.back()->floats({kCount}, sequence(kCount, 0, 1)));
    tensors.push_back(arenas.back()->output<float>(HX_DTYPE_F32, {kCount}, kCount));
  }
  std::vector<Outcome> outcomes(kThreads);
  std::vector<std::thread> threads;
  for (int thread = 0; thread < kThreads; ++thread) {
    threads.emplace_back([&, thread] {
      const size_t first = static_cast<size_t>(thread) * 3;
      const hx_tensor_view inputs[] = {tensors[first].view(device),
                                       tensors[first + 1].view(device)};
      const hx_tensor_view output = tensors[first + 2].view(device);
      const hx_kernel_args args = {HX_KERNEL_ARGS_STRUCT_SIZE, nullptr, nullptr, device,
                                   nullptr, 2, inputs, 1, &output, add.user_data, instance,
                                   nullptr, nullptr};
      for (int repeat = 0; repeat < 20 && outcomes[thread].code == HX_OK; ++repeat) {
        outcomes[thread] = DirectPlugin::outcome(add.compute(&args));
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  add.destroy(instance, add.user_data);
  for (int thread = 0; thread < kThreads; ++thread) {
    INFO("thread " << thread);
    CHECK(outcomes[thread].message.empty());
    const std::vector<float> expected = sequence(kCount, static_cast<float>(thread), 1);
    CHECK(arenas[static_cast<size_t>(thread)]->read<float>(
              tensors[static_cast<size_t>(thread) * 3 + 2], kCount) == expected);
  }
}

}  // namespace
}  // namespace opencl_test
