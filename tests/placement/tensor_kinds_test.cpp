// A device interns its tensors' (dtype, shape) (devices/tensor_kinds.hpp): one record per kind,
// found by any thread, and none past the most it keeps.
#include <catch2/catch.hpp>

#include <set>
#include <thread>
#include <vector>

#include "devices/tensor_kinds.hpp"

using hxrt::DType;
using hxrt::Shape;
using hxrt::detail::TensorKind;
using hxrt::detail::TensorKinds;

TEST_CASE("One record per dtype and shape: equal kinds share it, others differ") {
  TensorKinds kinds;
  const TensorKind* square = kinds.intern(DType::kF32, Shape{2, 2});
  REQUIRE(square != nullptr);
  CHECK(square->dtype == DType::kF32);
  CHECK(square->shape == Shape({2, 2}));
  CHECK(kinds.intern(DType::kF32, Shape{2, 2}) == square);
  std::set<const TensorKind*> distinct{square};
  for (const TensorKind* other :
       {kinds.intern(DType::kF64, Shape{2, 2}), kinds.intern(DType::kF32, Shape{4}),
        kinds.intern(DType::kF32, Shape{2, 2, 1}), kinds.intern(DType::kF32, Shape{}),
        kinds.intern(DType::kF32, Shape{2, 0})}) {
    REQUIRE(other != nullptr);
    CHECK(distinct.insert(other).second);
  }
  CHECK(TensorKinds().intern(DType::kF32, Shape{2, 2}) != square);  // another device's
}

TEST_CASE("Past the most kinds a device keeps, new kinds get none and kept ones stay") {
  TensorKinds kinds;
  const TensorKind* first = kinds.intern(DType::kF32, Shape{1});
  for (int64_t n = 2; n <= static_cast<int64_t>(TensorKinds::kMostKinds); ++n) {
    REQUIRE(kinds.intern(DType::kF32, Shape{n}) != nullptr);
  }
  CHECK(kinds.intern(DType::kF32, Shape{0}) == nullptr);
  CHECK(kinds.intern(DType::kI32, Shape{1}) == nullptr);
  CHECK(kinds.intern(DType::kF32, Shape{1}) == first);
}

TEST_CASE("Threads interning the same kinds at once get one record per kind") {
  TensorKinds kinds;
  constexpr int kThreads = 4;
  constexpr int64_t kKinds = 500;
  std::vector<std::vector<const TensorKind*>> seen(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int64_t n = 0; n < kKinds; ++n) seen[t].push_back(kinds.intern(DType::kF32, Shape{n}));
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 1; t < kThreads; ++t) CHECK(seen[t] == seen[0]);
  CHECK(std::set<const TensorKind*>(seen[0].begin(), seen[0].end()).size() == kKinds);
}
