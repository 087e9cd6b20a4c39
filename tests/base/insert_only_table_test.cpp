// The lock-free table of cached placement decisions (types/insert_only_table.hpp).
#include <catch2/catch.hpp>

#include <atomic>
#include <memory>
#include <thread>
#include <vector>

#include "base/insert_only_table.hpp"

namespace {

struct Entry {
  int key;
  int value;
  size_t hash() const { return static_cast<size_t>(key) % 7; }  // collisions on purpose
  bool matches(int probe) const { return key == probe; }
};

}  // namespace

TEST_CASE("the table finds every entry after growing many times, and keeps the first of two") {
  hxrt::detail::InsertOnlyTable<Entry> table;
  for (int key = 0; key < 1000; ++key) {
    table.insert(std::make_unique<Entry>(Entry{key, key * 2}), key);
  }
  CHECK(table.size() == 1000);
  for (int key = 0; key < 1000; ++key) {
    const Entry* found = table.find(static_cast<size_t>(key) % 7, key);
    REQUIRE(found != nullptr);
    CHECK(found->value == key * 2);
  }
  CHECK(table.find(1000 % 7, 1000) == nullptr);
  CHECK(table.insert(std::make_unique<Entry>(Entry{5, -1}), 5).value == 10);
  CHECK(table.size() == 1000);
}

TEST_CASE("readers search while writers insert and grow the table") {
  hxrt::detail::InsertOnlyTable<Entry> table;
  std::atomic<bool> done{false};
  std::atomic<int> wrong{0};
  std::vector<std::thread> readers;
  for (int r = 0; r < 2; ++r) {
    readers.emplace_back([&table, &done, &wrong] {
      while (!done.load()) {
        for (int key = 0; key < 2000; key += 37) {
          const Entry* found = table.find(static_cast<size_t>(key) % 7, key);
          if (found != nullptr && found->value != key * 2) ++wrong;
        }
      }
    });
  }
  std::vector<std::thread> writers;
  for (int w = 0; w < 2; ++w) {
    writers.emplace_back([&table, w] {
      for (int key = w; key < 2000; key += 2) {
        table.insert(std::make_unique<Entry>(Entry{key, key * 2}), key);
      }
    });
  }
  for (std::thread& writer : writers) writer.join();
  done = true;
  for (std::thread& reader : readers) reader.join();
  CHECK(wrong == 0);
  CHECK(table.size() == 2000);
}
