// The table that finds a live allocation's chunk from its address.
#include <catch2/catch.hpp>

#include <cstdint>
#include <map>
#include <random>

#include "memory/pointer_table.hpp"

using hxrt::detail::PointerTable;

namespace {

const void* address(uintptr_t value) { return reinterpret_cast<const void*>(value); }

}  // namespace

TEST_CASE("the pointer table agrees with a map through inserts, erases and growth") {
  PointerTable table;
  std::map<uintptr_t, int32_t> expected;
  std::mt19937_64 random(3);
  // Addresses from a small range, so that probe runs collide and wrap around.
  const auto random_address = [&] { return (1 + random() % 8192) * 256; };
  for (int32_t step = 0; step < 50000; ++step) {
    const uintptr_t key = random_address();
    if (expected.count(key) != 0) {
      REQUIRE(table.erase(address(key)) == expected[key]);
      expected.erase(key);
    } else {
      table.reserve_one_more();
      table.insert(address(key), step);
      expected[key] = step;
    }
    REQUIRE(table.size() == expected.size());
    if (step % 1000 == 0) {
      for (const auto& [held, value] : expected) REQUIRE(table.find(address(held)) == value);
    }
  }
  CHECK(table.find(address(256 * 9000)) == PointerTable::kAbsent);
  CHECK(table.erase(address(256 * 9000)) == PointerTable::kAbsent);
}
