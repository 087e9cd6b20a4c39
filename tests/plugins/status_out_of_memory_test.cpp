// status_create never returns NULL (NULL would read as success): when the host has no memory to
// copy the message into, the services table hands out a shared, preallocated OUT_OF_MEMORY
// status that destroying leaves intact. This program replaces the global operator new so that a
// test can make every allocation fail for the length of one call; it is a program of its own so
// that no other test runs with that replacement.
#include <catch2/catch.hpp>

#include <atomic>
#include <cstdlib>
#include <new>
#include <string>

#include "plugins/core_handle.hpp"

namespace {

std::atomic<bool> allocations_fail{false};

// Every allocation fails while it lives.
struct NoMemory {
  NoMemory() { allocations_fail = true; }
  ~NoMemory() { allocations_fail = false; }
  NoMemory(const NoMemory&) = delete;
  NoMemory& operator=(const NoMemory&) = delete;
};

}  // namespace

// Every replaceable form but the aligned ones (which keep the library's pair), all on malloc
// and free, so that whatever one form allocates another may free.
namespace {
void* allocate(std::size_t size) noexcept {
  return allocations_fail ? nullptr : std::malloc(size == 0 ? 1 : size);
}
void* allocate_or_throw(std::size_t size) {
  if (void* memory = allocate(size)) return memory;
  throw std::bad_alloc();
}
}  // namespace

void* operator new(std::size_t size) { return allocate_or_throw(size); }
void* operator new[](std::size_t size) { return allocate_or_throw(size); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept { return allocate(size); }
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept { return allocate(size); }
void operator delete(void* memory) noexcept { std::free(memory); }
void operator delete[](void* memory) noexcept { std::free(memory); }
void operator delete(void* memory, std::size_t) noexcept { std::free(memory); }
void operator delete[](void* memory, std::size_t) noexcept { std::free(memory); }
void operator delete(void* memory, const std::nothrow_t&) noexcept { std::free(memory); }
void operator delete[](void* memory, const std::nothrow_t&) noexcept { std::free(memory); }

TEST_CASE("status_create returns the preallocated OUT_OF_MEMORY status when allocation fails") {
  const hx_core_services& services = *hxrt::detail::core_services();
  hx_status* status = nullptr;
  hx_status* again = nullptr;
  {
    NoMemory no_memory;
    status = services.status_create(HX_INVALID_ARGUMENT, "a message to copy");
    again = services.status_create(HX_INTERNAL, nullptr);
  }
  REQUIRE(status != nullptr);
  CHECK(again == status);  // shared, not made
  CHECK(services.status_code(status) == HX_OUT_OF_MEMORY);
  const std::string message = services.status_message(status);
  CHECK(message == "the host ran out of memory while making a status");

  // Each receiver destroys what it got; the shared status outlives every destroy.
  services.status_destroy(status);
  services.status_destroy(again);
  CHECK(services.status_code(status) == HX_OUT_OF_MEMORY);
  CHECK(services.status_message(status) == message);

  // With memory back, statuses are made again.
  hx_status* made = services.status_create(HX_INVALID_ARGUMENT, "fine");
  REQUIRE(made != nullptr);
  CHECK(made != status);
  CHECK(services.status_code(made) == HX_INVALID_ARGUMENT);
  CHECK(std::string(services.status_message(made)) == "fine");
  services.status_destroy(made);
}

TEST_CASE("attribute getters answer without memory: absent is the shared NOT_FOUND, an error "
          "the shared OUT_OF_MEMORY") {
  const hx_core_services& services = *hxrt::detail::core_services();
  const hxrt::Attrs attrs{{"flag", true}};
  const hx_kernel_context_s context{&attrs};
  int64_t value = 0;
  bool flag = false;
  hx_status* absent = nullptr;
  hx_status* wrong_type = nullptr;
  hx_status* present = nullptr;
  {
    NoMemory no_memory;
    absent = services.attr_int(&context, "count", &value);
    wrong_type = services.attr_int(&context, "flag", &value);
    present = services.attr_bool(&context, "flag", &flag);
  }
  CHECK(services.status_code(absent) == HX_NOT_FOUND);
  CHECK(services.status_code(wrong_type) == HX_OUT_OF_MEMORY);
  CHECK(present == nullptr);
  CHECK(flag);
  services.status_destroy(absent);
  services.status_destroy(wrong_type);
  CHECK(services.status_code(absent) == HX_NOT_FOUND);
}
