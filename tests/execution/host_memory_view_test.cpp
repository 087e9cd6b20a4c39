// Tensors of another library's host memory (Runtime::view_of_host_memory, DLPack's import) and
// the host address of a tensor (Tensor::host_address, DLPack's export): the elements are read
// in place, the owner is released with the last tensor of the memory and not before a read
// queued on it has completed, and what cannot be taken in place is refused with what to do.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <vector>

#include "execution_rig.hpp"

using namespace execution_test;
using hxrt::DType;
using hxrt::Tensor;

namespace {

// 64-byte aligned floats that record when they are let go.
struct Owned {
  explicit Owned(size_t count, bool* released)
      : data(static_cast<float*>(std::aligned_alloc(64, ((count * 4 + 63) / 64) * 64))),
        released_flag(released) {}
  ~Owned() {
    std::free(data);
    *released_flag = true;
  }
  float* data;
  bool* released_flag;
};

}  // namespace

TEST_CASE("A tensor of host memory reads it in place and lets it go with its last tensor",
          "[execution][host_view]") {
  hxrt::Runtime rt = runtime_with_gpus(1);
  bool released = false;
  auto owned = std::make_shared<Owned>(4, &released);
  float* data = owned->data;
  for (int i = 0; i < 4; ++i) data[i] = static_cast<float>(i + 1);
  Tensor view = rt.view_of_host_memory(DType::kF32, {2, 2}, data, owned);
  owned.reset();
  CHECK(view.device() == "/job:localhost/replica:0/task:0/device:CPU:0");
  CHECK(view.host_address() == data);
  CHECK(rt.execute("Add", {view, view}).to_vector<float>() == std::vector<float>{2, 4, 6, 8});
  data[0] = 10;  // the memory is the tensor's elements
  CHECK(view.to_vector<float>()[0] == 10);
  // A copy to the sim GPU reads it; the owner outlives that read and goes with the last tensor.
  Tensor on_gpu = rt.to_device(view, "/GPU:0");
  view = Tensor();
  CHECK(on_gpu.to_vector<float>() == std::vector<float>{10, 2, 3, 4});
  CHECK(released);
}

TEST_CASE("What view_of_host_memory cannot take in place it refuses, saying what to do",
          "[execution][host_view]") {
  hxrt::Runtime rt = runtime_with_gpus(1);
  bool released = false;
  auto owned = std::make_shared<Owned>(32, &released);
  // The CPU's kernels need no more than whole elements (min_alignment 1): 16-byte aligned
  // data (NumPy's) is taken in place, an element split across the address is not.
  CHECK(rt.view_of_host_memory(DType::kF32, {4}, owned->data + 4, owned).host_address() ==
        owned->data + 4);
  void* split = reinterpret_cast<char*>(owned->data) + 2;
  CHECK_THROWS_WITH(rt.view_of_host_memory(DType::kF32, {4}, split, owned),
                    Catch::Contains("not a multiple of 4 bytes") &&
                        Catch::Contains("float32 elements") &&
                        Catch::Contains("copy the elements in with from_host"));
  CHECK_THROWS_WITH(rt.view_of_host_memory(DType::kF32, {4}, owned->data, owned, "/GPU:0"),
                    Catch::Contains("memory is its own, not the host's"));
  CHECK_THROWS_WITH(rt.view_of_host_memory(DType::kF32, {4}, nullptr, owned),
                    Catch::Contains("no data"));
  CHECK_THROWS_AS(rt.view_of_host_memory(DType::kF32, {INT64_MAX, 4}, owned->data, owned),
                  hxrt::Error);
  // A tensor of the sim GPU's own memory has no host address.
  CHECK(rt.tensor<float>({2}, {1, 2}, "/GPU:0").host_address() == nullptr);
  CHECK(rt.tensor<float>({2}, {1, 2}, "/CPU:0").host_address() != nullptr);
}
