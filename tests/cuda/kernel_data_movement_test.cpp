// The ops that move elements without computing, on GPU:0 for every dtype: the reshapes
// (Reshape, Flatten, Squeeze, Unsqueeze), Transpose, Slice, Expand, Concat and Gather. Each is
// compared byte for byte with the CPU plugin's result, and Transpose, Slice (a negative step
// among them), Concat and Gather (negative and out-of-range indices) with values worked out by
// hand as well.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "kernel_test_support.hpp"

namespace cuda_kernel_test {
namespace {

using Ints = std::vector<int64_t>;

std::vector<unsigned char> raw_bytes(const hxrt::Tensor& tensor) {
  std::vector<unsigned char> bytes(tensor.byte_size());
  tensor.copy_to_host(bytes.data(), bytes.size());
  return bytes;
}

// The op on GPU:0 and on the CPU give the same dtype, shape and bytes.
void check_same_bytes(const std::string& op, const std::vector<hxrt::Tensor>& inputs,
                      const hxrt::Attrs& attrs) {
  const hxrt::Tensor got = run_on_gpu(op, inputs, attrs);
  const hxrt::Tensor want = runtime().execute(op, inputs, attrs, kCpu0);
  CHECK(got.dtype() == want.dtype());
  CHECK(got.shape() == want.shape());
  CHECK(raw_bytes(got) == raw_bytes(want));
}

hxrt::Tensor float_tensor(const hxrt::Shape& shape, const std::vector<float>& values) {
  return runtime().tensor<float>(shape, values, kCpu0);
}

std::vector<float> gpu_floats(const std::string& op, const std::vector<hxrt::Tensor>& inputs,
                              const hxrt::Attrs& attrs) {
  return run_on_gpu(op, inputs, attrs).to_vector<float>();
}

struct MovementCase {
  const char* op;
  hxrt::Shape shape;
  hxrt::Attrs attrs;
};

const MovementCase kMovementCases[] = {
    {"Reshape", {4, 6}, {{"shape", Ints{2, 3, 4}}}},
    {"Flatten", {2, 3, 4}, {{"axis", int64_t{2}}}},
    {"Squeeze", {1, 5, 1}, {}},
    {"Unsqueeze", {5, 2}, {{"axes", Ints{0, 3}}}},
    {"Transpose", {2, 3, 4}, {}},  // reversed
    {"Transpose", {2, 3, 4, 5}, {{"perm", Ints{0, 2, 3, 1}}}},
    {"Transpose", {300, 257}, {{"perm", Ints{1, 0}}}},
    {"Slice", {6, 7}, {{"starts", Ints{1, -2}}, {"ends", Ints{5, 0}}, {"steps", Ints{2, -1}}}},
    {"Slice", {4, 5, 6}, {{"starts", Ints{-100}}, {"ends", Ints{100}}, {"axes", Ints{-1}}}},
    {"Slice", {9}, {{"starts", Ints{100}}, {"ends", Ints{-100}}, {"steps", Ints{-3}}}},
    {"Slice", {3, 4}, {{"starts", Ints{2}}, {"ends", Ints{2}}, {"axes", Ints{1}}}},  // empty
    {"Expand", {3, 1}, {{"shape", Ints{2, 3, 4}}}},
    {"Expand", {}, {{"shape", Ints{5}}}},
    {"Expand", {1, 4}, {{"shape", Ints{3, 1}}}},
};

}  // namespace

TEST_CASE("GPU reshapes, Transpose, Slice and Expand match the CPU for every dtype",
          "[cuda][data_movement]") {
  CUDA_PLUGIN_TEST_REQUIRE_GPU(runtime());
  uint32_t seed = 15000;
  for (const hxrt::DType dtype : hxrt::kAllDTypes) {
    for (const MovementCase& movement : kMovementCases) {
      INFO(movement.op << ' ' << hxrt::dtype_name(dtype) << ' ' << movement.shape.to_string());
      const hxrt::Tensor x = random_tensor(dtype, movement.shape, ++seed, -100, 100);
      check_same_bytes(movement.op, {x}, movement.attrs);
    }
  }
}

TEST_CASE("GPU Concat and Gather match the CPU for every dtype they take",
          "[cuda][data_movement]") {
  CUDA_PLUGIN_TEST_REQUIRE_GPU(runtime());
  uint32_t seed = 16000;
  for (const hxrt::DType dtype : hxrt::kAllDTypes) {
    INFO(hxrt::dtype_name(dtype));
    const hxrt::Tensor a = random_tensor(dtype, {2, 3, 4}, ++seed, -100, 100);
    const hxrt::Tensor b = random_tensor(dtype, {2, 1, 4}, ++seed, -100, 100);
    const hxrt::Tensor none = random_tensor(dtype, {2, 0, 4}, ++seed);
    check_same_bytes("Concat", {a, b, none, a}, {{"axis", int64_t{1}}});
    check_same_bytes("Concat", {a, a}, {{"axis", int64_t{-1}}});
    check_same_bytes("Concat", {a}, {{"axis", int64_t{0}}});
    const size_t size = hxrt::dtype_size(dtype);
    if (size == 1) continue;  // Gather takes elements of 2, 4 and 8 bytes
    const hxrt::Tensor indices64 = runtime().tensor<int64_t>({2, 2}, {2, -1, 0, 1}, kCpu0);
    const hxrt::Tensor indices32 = runtime().tensor<int32_t>({3}, {-4, 3, 1}, kCpu0);
    check_same_bytes("Gather", {a, indices64}, {{"axis", int64_t{1}}});
    check_same_bytes("Gather", {a, indices32}, {{"axis", int64_t{-1}}});
    check_same_bytes("Gather", {a, runtime().tensor<int32_t>({}, {1}, kCpu0)}, {});
  }
}

TEST_CASE("GPU data movement gives the elements worked out by hand", "[cuda][data_movement]") {
  CUDA_PLUGIN_TEST_REQUIRE_GPU(runtime());
  const hxrt::Tensor matrix = float_tensor({2, 3}, {1, 2, 3, 4, 5, 6});
  CHECK(gpu_floats("Transpose", {matrix}, {}) == std::vector<float>{1, 4, 2, 5, 3, 6});

  const hxrt::Tensor ten = float_tensor({10}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  // From 8 down to (not including) 1, every third.
  CHECK(gpu_floats("Slice", {ten}, {{"starts", Ints{8}}, {"ends", Ints{1}}, {"steps", Ints{-3}}}) ==
        std::vector<float>{8, 5, 2});
  // A start past the end clamps to the last element when stepping back; an end before the
  // start of the axis clamps to -1, so element 0 is included.
  CHECK(gpu_floats("Slice", {ten},
                   {{"starts", Ints{-1}}, {"ends", Ints{-100}}, {"steps", Ints{-4}}}) ==
        std::vector<float>{9, 5, 1});
  const hxrt::Tensor grid = float_tensor({3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  CHECK(gpu_floats("Slice", {grid},
                   {{"starts", Ints{-1}}, {"ends", Ints{-100}}, {"axes", Ints{1}},
                    {"steps", Ints{-2}}}) == std::vector<float>{3, 1, 7, 5, 11, 9});

  const hxrt::Tensor left = float_tensor({2, 2}, {1, 2, 3, 4});
  const hxrt::Tensor right = float_tensor({2, 1}, {5, 6});
  CHECK(gpu_floats("Concat", {left, right}, {{"axis", int64_t{1}}}) ==
        std::vector<float>{1, 2, 5, 3, 4, 6});
  CHECK(gpu_floats("Concat", {left, float_tensor({1, 2}, {7, 8})}, {{"axis", int64_t{0}}}) ==
        std::vector<float>{1, 2, 3, 4, 7, 8});

  CHECK(gpu_floats("Expand", {float_tensor({2, 1}, {1, 2})}, {{"shape", Ints{2, 3}}}) ==
        std::vector<float>{1, 1, 1, 2, 2, 2});

  // Rows 2 (as -1) and 0, and row 5, out of range: zeros, as TensorFlow's GPU kernels give
  // (the CPU fails such a call instead).
  const hxrt::Tensor rows = float_tensor({3, 2}, {1, 2, 3, 4, 5, 6});
  for (const hxrt::Tensor& indices : {runtime().tensor<int64_t>({3}, {-1, 0, 5}, kCpu0),
                                      runtime().tensor<int32_t>({3}, {-1, 0, 5}, kCpu0)}) {
    const hxrt::Tensor picked = run_on_gpu("Gather", {rows, indices}, {});
    CHECK(picked.shape() == hxrt::Shape{3, 2});
    CHECK(picked.to_vector<float>() == std::vector<float>{5, 6, 1, 2, 0, 0});
  }
  const hxrt::Tensor columns =
      run_on_gpu("Gather", {rows, runtime().tensor<int32_t>({1}, {-2}, kCpu0)},
                 {{"axis", int64_t{1}}});
  CHECK(columns.shape() == hxrt::Shape{3, 1});
  CHECK(columns.to_vector<float>() == std::vector<float>{1, 3, 5});
}

}  // namespace cuda_kernel_test
