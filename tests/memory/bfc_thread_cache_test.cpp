// The BFC allocator's thread caches (memory/thread_cache.hpp): hits without the lock, exact
// statistics with blocks held in caches, out of memory, blocks freed on another thread, and
// the lives of threads and allocators.
#include <catch2/catch.hpp>

#include <condition_variable>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "error_from.hpp"
#include "fake_device_memory.hpp"
#include "memory/bfc_allocator.hpp"

using hxrt::StatusCode;
using hxrt::detail::BfcAllocator;
using hxrt::detail::BfcOptions;
using hxrt::detail::ThreadCache;
using hxrt_test::error_from;
using hxrt_test::FakeDeviceMemory;
using hxrt_test::first_region;
using hxrt_test::KiB;
using hxrt_test::MiB;

namespace {

const char* const kCachedDevice = "/job:localhost/replica:0/task:0/device:SIM:3";

// Runs `body` on a thread of its own, to its end.
void on_another_thread(const std::function<void()>& body) { std::thread(body).join(); }

// A thread that runs what it is given, one job at a time, until it is destroyed: a thread
// that stays alive, with its caches, between the steps of a test.
class Worker {
 public:
  Worker() : thread_([this] { loop(); }) {}
  ~Worker() {
    run([this] { done_ = true; });
    thread_.join();
  }
  void run(std::function<void()> job) {
    std::promise<void> finished;
    std::future<void> result = finished.get_future();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      job_ = std::move(job);
      finished_ = &finished;
    }
    ready_.notify_one();
    result.get();
  }

 private:
  void loop() {
    while (!done_) {
      std::unique_lock<std::mutex> lock(mutex_);
      ready_.wait(lock, [this] { return job_ != nullptr; });
      std::function<void()> job = std::move(job_);
      job_ = nullptr;
      std::promise<void>* finished = finished_;
      lock.unlock();
      try {
        job();
        finished->set_value();
      } catch (...) {
        finished->set_exception(std::current_exception());
      }
    }
  }

  std::mutex mutex_;
  std::condition_variable ready_;
  std::function<void()> job_;
  std::promise<void>* finished_ = nullptr;
  bool done_ = false;  // written by the worker's own jobs only
  std::thread thread_;
};

}  // namespace

TEST_CASE("a block freed and allocated again on the same thread is the same one, without the "
          "lock") {
  FakeDeviceMemory device;
  BfcAllocator allocator(kCachedDevice, device.raw());
  void* first = allocator.allocate(1 * KiB);  // a miss: takes the lock
  const uint64_t locked = allocator.locked_calls();
  allocator.deallocate(first);  // the cache took note of the block when it was allocated
  for (int i = 0; i < 1000; ++i) {
    void* again = allocator.allocate(1000);  // rounds to the same size
    REQUIRE(again == first);
    allocator.deallocate(again);
  }
  CHECK(allocator.locked_calls() == locked);
  CHECK(allocator.stats().total_allocations == 1001);
  CHECK(allocator.check_invariants() == "");
}

TEST_CASE("statistics count blocks held in a thread cache as free") {
  FakeDeviceMemory device;
  BfcAllocator allocator(kCachedDevice, device.raw());
  void* a = allocator.allocate(1 * KiB);
  void* b = allocator.allocate(2 * KiB);
  allocator.deallocate(a);  // held by the cache
  auto stats = allocator.stats();
  CHECK(stats.bytes_in_use == 2 * KiB);
  CHECK(stats.allocation_count == 1);
  CHECK(stats.total_allocations == 2);
  CHECK(stats.bytes_reserved == 2 * MiB);
  allocator.deallocate(allocator.allocate(1 * KiB));  // a hit
  stats = allocator.stats();
  CHECK(stats.bytes_in_use == 2 * KiB);
  CHECK(stats.total_allocations == 3);
  CHECK(stats.peak_bytes_in_use == 3 * KiB);
  allocator.deallocate(b);
  CHECK(allocator.stats().bytes_in_use == 0);
  CHECK(allocator.stats().allocation_count == 0);
  CHECK(allocator.check_invariants() == "");
}

TEST_CASE("a hit that would pass the peak goes through the lock, and the peak stays exact") {
  FakeDeviceMemory device;
  BfcAllocator allocator(kCachedDevice, device.raw());
  void* a = allocator.allocate(1 * KiB);
  allocator.deallocate(a);                    // in use 0, peak 1 KiB
  void* c = allocator.allocate(2 * KiB);      // in use 2 KiB: the peak
  const uint64_t locked = allocator.locked_calls();
  CHECK(allocator.allocate(1 * KiB) == a);    // in use 3 KiB: a new peak
  CHECK(allocator.locked_calls() == locked + 1);
  CHECK(allocator.stats().peak_bytes_in_use == 3 * KiB);
  allocator.deallocate(a);
  allocator.deallocate(allocator.allocate(1 * KiB));  // back to 3 KiB: no new peak, no lock
  CHECK(allocator.locked_calls() == locked + 1);
  allocator.deallocate(c);
  CHECK(allocator.check_invariants() == "");
}

TEST_CASE("reset_peak counts blocks held in thread caches as free") {
  FakeDeviceMemory device;
  BfcAllocator allocator(kCachedDevice, device.raw());
  void* a = allocator.allocate(1 * KiB);
  allocator.deallocate(allocator.allocate(4 * KiB));  // held by the cache
  allocator.reset_peak();
  CHECK(allocator.stats().peak_bytes_in_use == 1 * KiB);
  allocator.deallocate(allocator.allocate(4 * KiB));  // from the cache, past the new peak
  CHECK(allocator.stats().peak_bytes_in_use == 5 * KiB);
  allocator.deallocate(a);
  CHECK(allocator.check_invariants() == "");
}

TEST_CASE("freeing a block held free in a thread cache is an INVALID_ARGUMENT error") {
  FakeDeviceMemory device;
  BfcAllocator allocator(kCachedDevice, device.raw());
  void* ptr = allocator.allocate(1 * KiB);
  allocator.deallocate(ptr);
  SECTION("on its thread") {
    const auto error = error_from([&] { allocator.deallocate(ptr); });
    REQUIRE(error);
    CHECK(error->code() == StatusCode::kInvalidArgument);
  }
  SECTION("on another thread") {
    on_another_thread([&] {
      CHECK(error_from([&] { allocator.deallocate(ptr); })->code() ==
            StatusCode::kInvalidArgument);
    });
  }
  CHECK(allocator.allocate(1 * KiB) == ptr);  // still there, intact
  CHECK(allocator.check_invariants() == "");
}

TEST_CASE("a block from one thread's cache freed on another goes back to the allocator") {
  FakeDeviceMemory device;
  BfcAllocator allocator(kCachedDevice, device.raw(), first_region(1 * MiB));
  Worker worker;
  void* ptr = nullptr;
  worker.run([&] {
    allocator.deallocate(allocator.allocate(1 * KiB));
    ptr = allocator.allocate(1 * KiB);  // out of the worker's cache
  });
  allocator.deallocate(ptr);
  CHECK(allocator.stats().bytes_in_use == 0);
  CHECK(allocator.stats().allocation_count == 0);
  // Freed twice, on the thread whose cache handed it out.
  worker.run([&] {
    CHECK(error_from([&] { allocator.deallocate(ptr); })->code() ==
          StatusCode::kInvalidArgument);
    CHECK(allocator.check_invariants() == "");
  });
  CHECK(allocator.release_unused_regions() == 1 * MiB);  // the region is whole again
  CHECK(allocator.check_invariants() == "");
}

TEST_CASE("a thread whose blocks were all freed elsewhere lets go of them and goes on") {
  FakeDeviceMemory device;
  BfcAllocator allocator(kCachedDevice, device.raw());
  Worker worker;
  for (int round = 0; round < 3; ++round) {
    std::vector<void*> blocks;
    worker.run([&] {
      for (int i = 0; i < ThreadCache::kMaxHeld; ++i) blocks.push_back(allocator.allocate(512));
    });
    for (void* block : blocks) allocator.deallocate(block);  // gone, for the worker's cache
    worker.run([&] {
      void* ptr = allocator.allocate(512);
      allocator.deallocate(ptr);
      CHECK(allocator.allocate(512) == ptr);
      allocator.deallocate(ptr);
      CHECK(allocator.check_invariants() == "");
    });
  }
  CHECK(allocator.stats().allocation_count == 0);
  CHECK(allocator.check_invariants() == "");
}

TEST_CASE("out of memory, a thread gives its own cached blocks back and tries again") {
  FakeDeviceMemory device;
  BfcOptions options = first_region(2 * MiB);
  options.limit_bytes = 2 * MiB;
  BfcAllocator allocator(kCachedDevice, device.raw(), options);
  std::vector<void*> blocks;
  for (int i = 0; i < 8; ++i) blocks.push_back(allocator.allocate(64 * KiB));
  for (void* block : blocks) allocator.deallocate(block);  // 512 KiB held by the cache
  CHECK(allocator.allocate(1792 * KiB) != nullptr);         // needs some of them
  CHECK(allocator.check_invariants() == "");
}

TEST_CASE("out of memory after another thread cached blocks, a fitting request succeeds once "
          "that thread calls the allocator") {
  FakeDeviceMemory device;
  BfcOptions options = first_region(2 * MiB);
  options.limit_bytes = 2 * MiB;
  BfcAllocator allocator(kCachedDevice, device.raw(), options);
  Worker worker;
  worker.run([&] {
    std::vector<void*> blocks;
    for (int i = 0; i < 8; ++i) blocks.push_back(allocator.allocate(64 * KiB));
    for (void* block : blocks) allocator.deallocate(block);  // 512 KiB held by its cache
  });
  CHECK(allocator.stats().bytes_in_use == 0);
  const auto error = error_from([&] { allocator.allocate(1792 * KiB); });
  REQUIRE(error);
  CHECK(error->code() == StatusCode::kOutOfMemory);
  // Asked to give its blocks back, the worker does at its next call, whatever it is.
  worker.run([&] { allocator.deallocate(allocator.allocate(256)); });
  CHECK(allocator.allocate(1792 * KiB) != nullptr);
  CHECK(allocator.check_invariants() == "");
}

TEST_CASE("release_unused_regions gives back the calling thread's cached blocks first") {
  FakeDeviceMemory device;
  BfcAllocator allocator(kCachedDevice, device.raw());
  allocator.deallocate(allocator.allocate(1 * KiB));
  CHECK(allocator.release_unused_regions() == 2 * MiB);
  CHECK(device.bytes_outstanding == 0);
  CHECK(allocator.check_invariants() == "");
}

TEST_CASE("a thread that exits gives its cached blocks back") {
  FakeDeviceMemory device;
  BfcAllocator allocator(kCachedDevice, device.raw());
  void* kept = nullptr;
  on_another_thread([&] {
    allocator.deallocate(allocator.allocate(1 * KiB));  // held free
    kept = allocator.allocate(4 * KiB);                 // out, still live after the exit
  });
  CHECK(allocator.stats().allocation_count == 1);
  CHECK(allocator.check_invariants() == "");
  allocator.deallocate(kept);
  CHECK(allocator.release_unused_regions() == 2 * MiB);
  CHECK(device.mismatched_deallocations == 0);
}

TEST_CASE("an allocator destroyed before a thread that cached from it exits") {
  FakeDeviceMemory device;
  Worker worker;
  auto first = std::make_unique<BfcAllocator>(kCachedDevice, device.raw());
  worker.run([&] { first->deallocate(first->allocate(1 * KiB)); });
  first.reset();
  CHECK(device.bytes_outstanding == 0);
  // Likely at the same address: the worker's cache of the first must not serve the second.
  auto second = std::make_unique<BfcAllocator>(kCachedDevice, device.raw());
  worker.run([&] {
    void* ptr = second->allocate(1 * KiB);
    second->deallocate(ptr);
    CHECK(second->allocate(1 * KiB) == ptr);
    CHECK(second->check_invariants() == "");
  });
  CHECK(second->stats().allocation_count == 1);
  second.reset();
  CHECK(device.bytes_outstanding == 0);
  CHECK(device.mismatched_deallocations == 0);
}
