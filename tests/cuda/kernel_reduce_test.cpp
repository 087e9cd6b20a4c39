// ONNX's ReduceSum, ReduceMean, ReduceMax, ReduceMin and ReduceL2 on GPU:0, for f32, f16 and
// bf16: against the CPU plugin over sets of axes (two at once among them), keepdims, an empty
// or absent list (every axis) and noop_with_empty_axes (none), and the one-block-per-output
// path (256 terms or more); and against values worked out by hand for NaN and empty sets.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <optional>

#include "kernel_test_support.hpp"

namespace cuda_kernel_test {
namespace {

const char* const kReductions[] = {"ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin",
                                   "ReduceL2"};

struct ReduceCase {
  hxrt::Shape shape;
  std::optional<std::vector<int64_t>> axes;  // nullopt: the attribute is absent
  bool keepdims;
  bool noop_with_empty_axes;
};

const ReduceCase kReduceCases[] = {
    {{6, 7, 8}, std::nullopt, true, false},               // every axis
    {{6, 7, 8}, std::vector<int64_t>{}, false, false},    // [] is every axis too
    {{6, 7, 8}, std::vector<int64_t>{}, false, true},     // unless noop_with_empty_axes
    {{6, 7, 8}, std::vector<int64_t>{1}, true, false},
    {{6, 7, 8}, std::vector<int64_t>{0, 2}, false, false},  // two axes, not neighbours
    {{6, 7, 8}, std::vector<int64_t>{-1, -2}, true, false},
    {{1, 5, 1, 3}, std::vector<int64_t>{0, 3}, false, false},
    {{}, std::nullopt, false, false},
    {{300, 40}, std::vector<int64_t>{0}, false, false},   // 300 terms, strided
    {{40, 1000}, std::vector<int64_t>{1}, true, false},   // 1000 terms, contiguous
    {{3, 100000}, std::nullopt, false, false},
};

hxrt::Attrs attrs_of(const ReduceCase& reduce) {
  hxrt::Attrs attrs{{"keepdims", reduce.keepdims},
                    {"noop_with_empty_axes", reduce.noop_with_empty_axes}};
  if (reduce.axes) attrs.set("axes", *reduce.axes);
  return attrs;
}

}  // namespace

TEST_CASE("GPU ONNX reductions match the CPU over any set of axes", "[cuda][reduce]") {
  CUDA_PLUGIN_TEST_REQUIRE_GPU(runtime());
  uint32_t seed = 14000;
  for (const char* op : kReductions) {
    for (const hxrt::DType dtype : kElementwiseDTypes) {
      for (const ReduceCase& reduce : kReduceCases) {
        const hxrt::Attrs attrs = attrs_of(reduce);
        INFO(op << ' ' << hxrt::dtype_name(dtype) << ' ' << reduce.shape.to_string() << " axes "
                << (reduce.axes ? hxrt::attr_value_to_string(*reduce.axes) : "absent")
                << " keepdims " << reduce.keepdims << " noop " << reduce.noop_with_empty_axes);
        const hxrt::Tensor x = random_tensor(dtype, reduce.shape, ++seed);
        // Sums of random signs cancel: their error is relative to the terms' magnitude, not
        // to the result's.
        const double bound = relative_tolerance(dtype) * 10;
        check_elements(run_on_gpu(op, {x}, attrs), cpu_reference(op, {x}, attrs),
                       [bound](size_t, double w) { return bound * std::max(1.0, std::fabs(w)); });
      }
    }
  }
}

TEST_CASE("GPU reductions over two axes, NaN and empty sets, worked out by hand",
          "[cuda][reduce]") {
  CUDA_PLUGIN_TEST_REQUIRE_GPU(runtime());
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  for (const hxrt::DType dtype : kElementwiseDTypes) {
    INFO(hxrt::dtype_name(dtype));
    // [2, 2, 2] over axes 0 and 2: out[j] sums x[i, j, k] over i and k.
    const hxrt::Tensor x = cpu_tensor(dtype, {2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
    const hxrt::Attrs two_axes{{"axes", std::vector<int64_t>{0, 2}}, {"keepdims", false}};
    const hxrt::Tensor sum = run_on_gpu("ReduceSum", {x}, two_axes);
    CHECK(sum.shape() == hxrt::Shape{2});
    CHECK(values_of(sum) == std::vector<double>{1 + 2 + 5 + 6, 3 + 4 + 7 + 8});
    CHECK(values_of(run_on_gpu("ReduceMean", {x}, two_axes)) == std::vector<double>{3.5, 5.5});
    CHECK(values_of(run_on_gpu("ReduceMax", {x}, two_axes)) == std::vector<double>{6, 8});
    CHECK(values_of(run_on_gpu("ReduceMin", {x}, two_axes)) == std::vector<double>{1, 3});
    const std::vector<double> l2 = values_of(run_on_gpu("ReduceL2", {x}, two_axes));
    CHECK(l2[0] == Approx(std::sqrt(1 + 4 + 25 + 36)).epsilon(relative_tolerance(dtype)));

    // NaN wins Max and Min, wherever it is in the set.
    const hxrt::Tensor with_nan = cpu_tensor(dtype, {2, 2}, {1, nan, nan, 3});
    const hxrt::Attrs rows{{"axes", std::vector<int64_t>{1}}};
    for (const char* op : {"ReduceMax", "ReduceMin"}) {
      const std::vector<double> got = values_of(run_on_gpu(op, {with_nan}, rows));
      CHECK(std::isnan(got[0]));
      CHECK(std::isnan(got[1]));
    }

    // Sets without elements: 0, NaN, -inf, +inf, 0.
    const hxrt::Tensor empty = cpu_tensor(dtype, {0, 2}, {});
    const hxrt::Attrs first{{"axes", std::vector<int64_t>{0}}};
    CHECK(values_of(run_on_gpu("ReduceSum", {empty}, first)) == std::vector<double>{0, 0});
    CHECK(std::isnan(values_of(run_on_gpu("ReduceMean", {empty}, first))[0]));
    CHECK(values_of(run_on_gpu("ReduceMax", {empty}, first)) == std::vector<double>{-inf, -inf});
    CHECK(values_of(run_on_gpu("ReduceMin", {empty}, first)) == std::vector<double>{inf, inf});
    CHECK(values_of(run_on_gpu("ReduceL2", {empty}, first)) == std::vector<double>{0, 0});
  }
}

}  // namespace cuda_kernel_test
