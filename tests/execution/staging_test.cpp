// Uploads to an asynchronous device: through the device's staging ring, one page-locked arena
// taken once, in slices of 8 MiB whose uploads the host does not wait for unless the device is
// a whole arena behind; or straight from page-locked memory the runtime gave
// (Runtime::pinned_memory). The sim's counters show each upload call, its bytes and every
// page-locked allocation; its modelled copy latency keeps a slice in use long enough that
// reusing it early would upload the wrong bytes.
#include <catch2/catch.hpp>
#include <cstring>
#include <thread>

#include "byte_sizes.hpp"
#include "execution_rig.hpp"

using namespace execution_test;

namespace {

using hxrt_test::kMiB;
constexpr size_t kArena = 32 * kMiB;
constexpr size_t kSlice = 8 * kMiB;

// `mib` MiB of floats, each different from its neighbours and from other seeds'.
std::vector<float> pattern(size_t mib, float seed) {
  std::vector<float> values(mib * kMiB / sizeof(float));
  for (size_t i = 0; i < values.size(); ++i) {
    values[i] = seed + static_cast<float>(i % 1000003);
  }
  return values;
}

// The index of the first value of `tensor` that differs from `expected`, -1 when none does;
// the size when the sizes differ. (Catch would print every value of a failed comparison of two
// vectors: tens of millions here.)
int64_t first_difference(const hxrt::Tensor& tensor, const std::vector<float>& expected) {
  const std::vector<float> got = tensor.to_vector<float>();
  if (got.size() != expected.size()) return static_cast<int64_t>(got.size());
  for (size_t i = 0; i < got.size(); ++i) {
    if (got[i] != expected[i]) return static_cast<int64_t>(i);
  }
  return -1;
}

hxrt::Tensor upload(hxrt::Runtime& rt, const std::vector<float>& values) {
  return rt.tensor({static_cast<int64_t>(values.size())}, values, "/GPU:0");
}

}  // namespace

TEST_CASE("A large upload goes in 8 MiB slices through one page-locked arena, taken once",
          "[execution][staging]") {
  hxrt::Runtime rt = runtime_with_gpus(1);
  const hx_sim_transfer_counts_t before = sim_counts(0);
  for (float seed : {1.0f, 2.0f, 3.0f}) {
    const std::vector<float> values = pattern(40, seed);
    const hxrt::Tensor t = upload(rt, values);
    CHECK(first_difference(t, values) == -1);
  }
  const hx_sim_transfer_counts_t after = sim_counts(0);
  CHECK(after.host_to_device == before.host_to_device + 3 * 5);
  CHECK(after.host_to_device_bytes == before.host_to_device_bytes + 3 * 40 * kMiB);
  CHECK(after.pinned_allocations == before.pinned_allocations + 1);
  CHECK(after.pinned_allocated_bytes == before.pinned_allocated_bytes + kArena);
}

TEST_CASE("An upload returns while its slices are still being copied", "[execution][staging]") {
  // Each copy call takes 200 ms on the device: three slices, 600 ms, all in the arena at once.
  hxrt::Runtime rt = runtime_with_gpus(1, "\"h2d_latency_us\":200000");
  const std::vector<float> values = pattern(3 * kSlice / kMiB, 5.0f);
  const hxrt::Tensor t = upload(rt, values);
  CHECK_FALSE(t.ready());
  CHECK(first_difference(t, values) == -1);
}

TEST_CASE("An upload larger than the arena waits for the oldest slices and reuses them intact",
          "[execution][staging]") {
  // The sim reads a copy's source when its modelled time ends: a slice refilled before its
  // copy ran would upload the next slice's bytes.
  hxrt::Runtime rt = runtime_with_gpus(1, "\"h2d_latency_us\":30000");
  const hx_sim_transfer_counts_t before = sim_counts(0);
  const std::vector<float> first = pattern(72, 7.0f);
  const std::vector<float> second = pattern(20, 9.0f);
  const hxrt::Tensor a = upload(rt, first);
  const hxrt::Tensor b = upload(rt, second);  // starts wherever the ring is
  CHECK(first_difference(a, first) == -1);
  CHECK(first_difference(b, second) == -1);
  const hx_sim_transfer_counts_t after = sim_counts(0);
  CHECK(after.host_to_device == before.host_to_device + 9 + 3);
  CHECK(after.pinned_allocated_bytes - before.pinned_allocated_bytes == kArena);
}

TEST_CASE("Small uploads from several threads share the arena and arrive intact",
          "[execution][staging]") {
  hxrt::Runtime rt = runtime_with_gpus(1, "\"random_delay_us\":200,\"random_seed\":3");
  const hx_sim_transfer_counts_t before = sim_counts(0);
  std::vector<std::thread> threads;
  std::vector<int> wrong(4, 0);
  for (int thread = 0; thread < 4; ++thread) {
    threads.emplace_back([&rt, &wrong, thread] {
      for (int i = 0; i < 100; ++i) {
        // 64 KiB to 576 KiB: uneven sizes, so that slices wrap at odd places.
        std::vector<float> values(16384 * (1 + (i + thread) % 9));
        for (size_t j = 0; j < values.size(); ++j) {
          values[j] = static_cast<float>(thread * 1000 + i) + static_cast<float>(j);
        }
        const hxrt::Tensor t = upload(rt, values);
        if (i % 10 == 9 && first_difference(t, values) != -1) ++wrong[thread];
        if (i % 10 != 9) rt.synchronize();  // keep the ring busy, not full
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  CHECK(wrong == std::vector<int>(4, 0));
  const hx_sim_transfer_counts_t after = sim_counts(0);
  CHECK(after.host_to_device == before.host_to_device + 400);
  CHECK(after.pinned_allocations == before.pinned_allocations + 1);
}

TEST_CASE("from_host of the runtime's page-locked memory uploads it straight, in one copy",
          "[execution][staging][pinned]") {
  hxrt::Runtime rt = runtime_with_gpus(1, "\"h2d_latency_us\":20000");
  const size_t bytes = 40 * kMiB;
  const hx_sim_transfer_counts_t before = sim_counts(0);
  const hxrt::PinnedMemory pinned = rt.pinned_memory(bytes, "/GPU:0");
  REQUIRE(pinned.data() != nullptr);
  CHECK(pinned.size() == bytes);
  CHECK(reinterpret_cast<uintptr_t>(pinned.data()) % 64 == 0);
  CHECK(pinned.device() == "/job:localhost/replica:0/task:0/device:GPU:0");
  const std::vector<float> values = pattern(40, 11.0f);
  std::memcpy(pinned.data(), values.data(), bytes);

  const hxrt::Tensor t = rt.from_host(hxrt::DType::kF32, {static_cast<int64_t>(values.size())},
                                      pinned.data(), bytes, "/GPU:0");
  CHECK(t.ready());  // the caller may reuse its memory as soon as from_host returns
  std::memset(pinned.data(), 0, bytes);
  CHECK(first_difference(t, values) == -1);
  const hx_sim_transfer_counts_t after = sim_counts(0);
  CHECK(after.host_to_device == before.host_to_device + 1);
  CHECK(after.pinned_allocations == before.pinned_allocations + 1);  // the caller's, no arena

  // A part of it goes straight too; a download lands in it.
  const hxrt::Tensor part = rt.from_host(hxrt::DType::kF32, {4},
                                         static_cast<char*>(pinned.data()) + 64, 16, "/GPU:0");
  CHECK(sim_counts(0).host_to_device == after.host_to_device + 1);
  CHECK(sim_counts(0).pinned_allocations == after.pinned_allocations);
  t.copy_to_host(pinned.data(), bytes);
  CHECK(std::memcmp(pinned.data(), values.data(), bytes) == 0);
}

TEST_CASE("Ordinary memory is staged while page-locked memory exists, and a range that ends "
          "exactly at the end of page-locked memory goes straight",
          "[execution][staging][pinned]") {
  hxrt::Runtime rt = runtime_with_gpus(1);
  const hxrt::PinnedMemory pinned = rt.pinned_memory(4096, "/GPU:0");
  const std::vector<float> values(1024, 3.0f);
  std::memcpy(pinned.data(), values.data(), 4096);
  const hx_sim_transfer_counts_t before = sim_counts(0);
  const hxrt::Tensor staged = upload(rt, values);
  CHECK(first_difference(staged, values) == -1);
  CHECK(sim_counts(0).pinned_allocations == before.pinned_allocations + 1);  // the arena

  // The last 1 KiB: straight, so not waiting behind the arena's slices; its one copy is all.
  const hx_sim_transfer_counts_t middle = sim_counts(0);
  const hxrt::Tensor tail = rt.from_host(hxrt::DType::kF32, {256},
                                         static_cast<char*>(pinned.data()) + 3072, 1024,
                                         "/GPU:0");
  CHECK(tail.ready());
  CHECK(tail.to_vector<float>() == std::vector<float>(256, 3.0f));
  CHECK(sim_counts(0).host_to_device == middle.host_to_device + 1);
}

TEST_CASE("pinned_memory refuses what it cannot give, saying why", "[execution][pinned]") {
  hxrt::Runtime rt = runtime_with_gpus(1);
  const hxrt::Error empty = error_from([&] { rt.pinned_memory(0); }).value();
  CHECK(empty.code() == hxrt::StatusCode::kInvalidArgument);
  CHECK_THAT(empty.what(), Catch::Contains("0 bytes asked for; ask for at least 1"));

  const hxrt::Error cpu = error_from([&] { rt.pinned_memory(64, "/CPU:0"); }).value();
  CHECK(cpu.code() == hxrt::StatusCode::kInvalidArgument);
  CHECK_THAT(cpu.what(), Catch::Contains("CPU:0's plugin 'cpu' offers no page-locked host "
                                         "memory"));

  const hxrt::Error huge = error_from([&] { rt.pinned_memory(SIZE_MAX - 8, "/GPU:0"); }).value();
  CHECK(huge.code() == hxrt::StatusCode::kOutOfMemory);
  CHECK_THAT(huge.what(), Catch::Contains("bytes of page-locked host memory from plugin 'sim'"));

  // No device named: the first by type priority whose plugin offers it, the GPU here.
  CHECK(rt.pinned_memory(64).device() == "/job:localhost/replica:0/task:0/device:GPU:0");

  hxrt::Runtime without = runtime_with_gpus(1, "\"pinned_memory\":false");
  const hxrt::Error none = error_from([&] { without.pinned_memory(64); }).value();
  CHECK(none.code() == hxrt::StatusCode::kInvalidArgument);
  CHECK_THAT(none.what(), Catch::Contains("no device's plugin offers page-locked host memory"));
}

TEST_CASE("Page-locked memory outlives the runtime that gave it", "[execution][pinned]") {
  hxrt::PinnedMemory kept;
  {
    hxrt::Runtime rt = runtime_with_gpus(1);
    kept = rt.pinned_memory(1024, "/GPU:0");
  }
  std::memset(kept.data(), 1, kept.size());
  const hxrt::PinnedMemory empty;
  CHECK(empty.data() == nullptr);
  CHECK(empty.size() == 0);
  CHECK(empty.device().empty());
}

TEST_CASE("Where the plugin gives page-locked memory as buffers, every copy through it passes "
          "the buffer and an offset, and without them the same copies pass pointers",
          "[execution][staging][pinned]") {
  for (const bool buffers : {true, false}) {
    INFO("pinned_buffers " << buffers);
    hxrt::Runtime rt =
        runtime_with_gpus(1, std::string("\"pinned_buffers\":") + (buffers ? "true" : "false"));
    const hx_sim_transfer_counts_t before = sim_counts(0);
    // Staged through the arena: 20 MiB in three slices.
    const std::vector<float> values = pattern(20, 5.0f);
    const hxrt::Tensor staged = upload(rt, values);
    CHECK(first_difference(staged, values) == -1);
    // Straight from the runtime's page-locked memory, at an offset into it, and back into it.
    const hxrt::PinnedMemory pinned = rt.pinned_memory(kMiB, "/GPU:0");
    std::memcpy(static_cast<char*>(pinned.data()) + 256, values.data(), 1024);
    const hxrt::Tensor part = rt.from_host(hxrt::DType::kF32, {256},
                                           static_cast<char*>(pinned.data()) + 256, 1024,
                                           "/GPU:0");
    part.copy_to_host(static_cast<char*>(pinned.data()) + 4096, 1024);
    CHECK(std::memcmp(static_cast<char*>(pinned.data()) + 4096, values.data(), 1024) == 0);
    const hx_sim_transfer_counts_t after = sim_counts(0);
    // 3 slices, the straight upload and the download (to_vector reads into ordinary memory).
    CHECK(after.host_buffer_copies - before.host_buffer_copies == (buffers ? 5u : 0u));
    CHECK(after.host_to_device - before.host_to_device == 4);
  }
}
