// Host tensors that live in page-locked memory (Runtime::pinned_tensor, pin_memory): the
// loader's bytes are the tensor's, with no copy; the CPU computes on them; a copy to the
// plugin's device is queued straight from them; the memory lives while any tensor in it does,
// and a tensor dropped during its own upload lets the memory go only once the upload is done.
#include <catch2/catch.hpp>

#include <cstring>

#include "execution_rig.hpp"

using namespace execution_test;
using hxrt::DType;
using hxrt::Tensor;

namespace {

void write_floats(void* to, const std::vector<float>& values) {
  std::memcpy(to, values.data(), values.size() * sizeof(float));
}

}  // namespace

TEST_CASE("A pinned tensor's elements are what the loader wrote into its memory",
          "[execution][pinned]") {
  hxrt::Runtime rt = runtime_with_gpus(1);
  const hxrt::PinnedMemory memory = rt.pinned_memory(1024, "/GPU:0");
  write_floats(memory.data(), {1, 2, 3, 4});
  write_floats(static_cast<char*>(memory.data()) + 64, {10, 20});
  const Tensor first = rt.pinned_tensor(memory, DType::kF32, {2, 2});
  const Tensor second = rt.pinned_tensor(memory, DType::kF32, {2}, 64);
  CHECK(first.device() == "/job:localhost/replica:0/task:0/device:CPU:0");
  CHECK(first.to_vector<float>() == std::vector<float>{1, 2, 3, 4});
  CHECK(second.to_vector<float>() == std::vector<float>{10, 20});
  // The CPU computes on it as on any of its tensors, and writes land in the memory.
  CHECK(rt.execute("Add", {first, first}, {}, "/CPU:0").to_vector<float>() ==
        std::vector<float>{2, 4, 6, 8});
  write_floats(memory.data(), {5, 6, 7, 8});
  CHECK(first.to_vector<float>() == std::vector<float>{5, 6, 7, 8});
}

TEST_CASE("A pinned tensor goes to its plugin's device in one queued copy, straight from it",
          "[execution][pinned]") {
  // Each upload takes 100 ms on the device: the copy is queued, not waited for.
  hxrt::Runtime rt = runtime_with_gpus(1, "\"h2d_latency_us\":100000");
  const Tensor pinned = rt.pin_memory(rt.tensor<float>({3}, {1, 2, 3}, "/CPU:0"), "/GPU:0");
  const hx_sim_transfer_counts_t before = sim_counts(0);
  const Tensor on_gpu = rt.to_device(pinned, "/GPU:0");
  CHECK_FALSE(on_gpu.ready());
  CHECK(on_gpu.to_vector<float>() == std::vector<float>{1, 2, 3});
  const hx_sim_transfer_counts_t after = sim_counts(0);
  CHECK(after.host_to_device == before.host_to_device + 1);
  CHECK(after.host_to_device_bytes == before.host_to_device_bytes + 3 * sizeof(float));
  CHECK(after.pinned_allocations == before.pinned_allocations);  // no staging arena taken
}

TEST_CASE("Pinned memory lives while a tensor in it does, and past an upload in flight",
          "[execution][pinned]") {
  hxrt::Runtime rt = runtime_with_gpus(1, "\"h2d_latency_us\":100000");
  const hx_sim_transfer_counts_t before = sim_counts(0);
  Tensor on_gpu;
  {
    hxrt::PinnedMemory memory = rt.pinned_memory(64, "/GPU:0");
    write_floats(memory.data(), {7, 8});
    Tensor pinned = rt.pinned_tensor(memory, DType::kF32, {2});
    memory = hxrt::PinnedMemory();  // the tensor holds it now
    CHECK(sim_counts(0).pinned_deallocations == before.pinned_deallocations);
    on_gpu = rt.to_device(pinned, "/GPU:0");
    REQUIRE_FALSE(on_gpu.ready());
  }  // the tensor goes while its upload still reads the memory: it waits for that read
  CHECK(on_gpu.ready());
  CHECK(on_gpu.to_vector<float>() == std::vector<float>{7, 8});
  const hx_sim_transfer_counts_t after = sim_counts(0);
  CHECK(after.pinned_allocations == before.pinned_allocations + 1);
  CHECK(after.pinned_deallocations == before.pinned_deallocations + 1);
}

TEST_CASE("A graph fed a pinned tensor uploads it to the GPU its input is placed on",
          "[execution][pinned]") {
  hxrt::Runtime rt = runtime_with_gpus(1);
  hxrt::GraphBuilder builder(rt);
  const auto scope = rt.device("/GPU:0");
  const hxrt::NodeOutput x = builder.input("x", DType::kF32, {2});
  const hxrt::Executable exe = rt.compile(builder.graph(), {builder.add("y", "Add", {x, x})});
  const Tensor pinned = rt.pin_memory(rt.tensor<float>({2}, {1.5f, 2.5f}, "/CPU:0"));
  for (int run = 0; run < 3; ++run) {
    CHECK(exe.run({{"x", pinned}})[0].to_vector<float>() == std::vector<float>{3, 5});
  }
}

TEST_CASE("pinned_tensor refuses what does not fit or is not aligned, saying why",
          "[execution][pinned]") {
  hxrt::Runtime rt = runtime_with_gpus(1);
  const hxrt::PinnedMemory memory = rt.pinned_memory(100, "/GPU:0");
  const auto refusal = [&](const hxrt::PinnedMemory& from, const hxrt::Shape& shape,
                           size_t offset) {
    const std::optional<hxrt::Error> error =
        error_from([&] { (void)rt.pinned_tensor(from, DType::kF32, shape, offset); });
    REQUIRE(error);
    CHECK(error->code() == hxrt::StatusCode::kInvalidArgument);
    return std::string(error->what());
  };
  CHECK_THAT(refusal(memory, {26}, 0),
             Catch::Contains("float32[26] tensor (104 bytes) from byte 0 does not fit in the "
                             "100 bytes"));
  CHECK_THAT(refusal(memory, {2}, SIZE_MAX - 2), Catch::Contains("does not fit"));
  CHECK_THAT(refusal(memory, {2}, 4), Catch::Contains("is not a multiple of") &&
                                          Catch::Contains("alignment of 64 bytes"));
  CHECK_THAT(refusal(hxrt::PinnedMemory(), {2}, 0), Catch::Contains("PinnedMemory is empty"));
  CHECK(rt.pinned_tensor(memory, DType::kF32, {0}, 64).to_vector<float>().empty());
}
