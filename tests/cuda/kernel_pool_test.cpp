// MaxPool, AveragePool, GlobalMaxPool and GlobalAveragePool on GPU:0 (cuDNN) against the CPU
// plugin, for f32, f16 and bf16: 1-D, 2-D and 3-D windows with strides and pads, ceil_mode
// where it adds no window, count_include_pad both ways; and what cuDNN cannot do, declined.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "kernel_test_support.hpp"

namespace cuda_kernel_test {
namespace {

using PoolInts = std::vector<int64_t>;

struct PoolCase {
  hxrt::Shape x;
  hxrt::Attrs attrs;
};

const PoolCase kPoolCases[] = {
    {{1, 2, 7, 7}, {{"kernel_shape", PoolInts{3, 3}}, {"strides", PoolInts{2, 2}}}},
    {{2, 3, 8, 8}, {{"kernel_shape", PoolInts{2, 2}}, {"strides", PoolInts{2, 2}}}},
    {{1, 2, 7, 7},
     {{"kernel_shape", PoolInts{3, 3}},
      {"strides", PoolInts{2, 2}},
      {"pads", PoolInts{1, 1, 1, 1}}}},
    // ceil_mode where the division is exact: the same windows either way.
    {{1, 2, 7, 9},
     {{"kernel_shape", PoolInts{3, 3}}, {"strides", PoolInts{2, 2}}, {"ceil_mode", int64_t{1}}}},
    // SAME_UPPER with a 3 x 3 window and stride 1 pads 1 at both ends.
    {{1, 2, 5, 6}, {{"kernel_shape", PoolInts{3, 3}}, {"auto_pad", std::string("SAME_UPPER")}}},
    // 1-D and 3-D.
    {{2, 3, 10},
     {{"kernel_shape", PoolInts{3}}, {"strides", PoolInts{2}}, {"pads", PoolInts{1, 1}}}},
    {{1, 2, 5, 6, 4}, {{"kernel_shape", PoolInts{2, 3, 2}}, {"strides", PoolInts{1, 2, 2}}}},
    // A window as large as the input.
    {{2, 4, 5, 5}, {{"kernel_shape", PoolInts{5, 5}}}},
};

const hxrt::Shape kGlobalShapes[] = {
    {2, 3, 5, 6}, {2, 3, 7}, {1, 2, 3, 4, 5}, {3, 2, 1, 1}, {1, 1, 64, 64}};

// The maximum is one of the elements: exact. An average accumulates in f32.
void check_pool(const std::string& op, hxrt::DType dtype, const hxrt::Shape& shape,
                const hxrt::Attrs& attrs, uint32_t seed) {
  const hxrt::Tensor x = random_tensor(dtype, shape, seed, -10, 10);
  const hxrt::Tensor got = run_on_gpu(op, {x}, attrs);
  const hxrt::Tensor want = cpu_reference(op, {x}, attrs);
  if (op.find("Max") != std::string::npos) {
    check_equal(got, want);
    return;
  }
  const double relative = 2 * relative_tolerance(dtype);
  check_elements(got, want,
                 [&](size_t, double w) { return relative * std::max(1.0, std::fabs(w)); });
}

}  // namespace

TEST_CASE("GPU MaxPool and AveragePool match the CPU", "[cuda][pool]") {
  CUDA_PLUGIN_TEST_REQUIRE_GPU(runtime());
  uint32_t seed = 23000;
  for (const hxrt::DType dtype : kElementwiseDTypes) {
    for (const PoolCase& pool : kPoolCases) {
      for (const char* op : {"MaxPool", "AveragePool"}) {
        for (const int64_t count_include_pad : {int64_t{0}, int64_t{1}}) {
          if (op == std::string("MaxPool") && count_include_pad == 1) continue;
          hxrt::Attrs attrs = pool.attrs;
          if (op == std::string("AveragePool")) {
            attrs.set("count_include_pad", count_include_pad);
          }
          INFO(op << ' ' << hxrt::dtype_name(dtype) << ' ' << pool.x.to_string()
                  << " count_include_pad " << count_include_pad);
          check_pool(op, dtype, pool.x, attrs, ++seed);
        }
      }
    }
  }
}

TEST_CASE("GPU GlobalMaxPool and GlobalAveragePool match the CPU", "[cuda][pool]") {
  CUDA_PLUGIN_TEST_REQUIRE_GPU(runtime());
  uint32_t seed = 24000;
  for (const hxrt::DType dtype : kElementwiseDTypes) {
    for (const hxrt::Shape& shape : kGlobalShapes) {
      for (const char* op : {"GlobalMaxPool", "GlobalAveragePool"}) {
        INFO(op << ' ' << hxrt::dtype_name(dtype) << ' ' << shape.to_string());
        check_pool(op, dtype, shape, {}, ++seed);
      }
    }
  }
}

TEST_CASE("GPU pools decline Indices, dilations and windows cuDNN cannot give", "[cuda][pool]") {
  CUDA_PLUGIN_TEST_REQUIRE_GPU(runtime());
  const hxrt::Tensor x = random_tensor(hxrt::DType::kF32, {1, 2, 8, 8}, 25000);
  const hxrt::Attrs window = {{"kernel_shape", PoolInts{3, 3}}, {"strides", PoolInts{2, 2}}};
  hxrt::Attrs indices = window;
  indices.set("num_outputs", int64_t{2});
  CHECK_THROWS_WITH(runtime().execute_multi("MaxPool", {x}, indices, kGpu0),
                    Catch::Contains("cuDNN's pooling does not give Indices"));
  hxrt::Attrs dilated = window;
  dilated.set("dilations", PoolInts{2, 2});
  CHECK_THROWS_WITH(runtime().execute("MaxPool", {x}, dilated, kGpu0),
                    Catch::Contains("cuDNN's pooling has no dilations"));
  // ceil_mode's extra window: (8 - 3) / 2 rounded up gives 4 windows, cuDNN's 3.
  hxrt::Attrs ceil = window;
  ceil.set("ceil_mode", int64_t{1});
  CHECK_THROWS_WITH(runtime().execute("AveragePool", {x}, ceil, kGpu0),
                    Catch::Contains("cuDNN pads both ends alike"));
}

}  // namespace cuda_kernel_test
