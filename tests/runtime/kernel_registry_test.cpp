// Kernel lookup by (op, device type, T, output dtype) and priority, and ties rejected.
#include <catch2/catch.hpp>

#include "kernel_registry.hpp"
#include "runtime_fixture.hpp"

using Catch::Matchers::Contains;
using hxrt::DType;
using hxrt::detail::KernelEntry;
using hxrt::detail::KernelRegistry;

namespace {

hx_status* kernel_a(const hx_kernel_args*) { return nullptr; }
hx_status* kernel_b(const hx_kernel_args*) { return nullptr; }

KernelEntry entry(const std::string& plugin, int priority, std::vector<DType> dtypes,
                  hx_kernel_fn fn) {
  KernelEntry e;
  e.op = "Relu";
  e.device_type = "CPU";
  e.dtypes = std::move(dtypes);
  e.priority = priority;
  e.compute = fn;
  e.plugin = plugin;
  return e;
}

}  // namespace

TEST_CASE("the highest-priority kernel that accepts the dtype wins") {
  KernelRegistry registry;
  registry.add(entry("low", 0, {DType::kF32, DType::kF64}, kernel_a));
  registry.add(entry("high", 5, {DType::kF32}, kernel_b));
  CHECK(registry.find("Relu", "CPU", DType::kF32, DType::kF32)->compute == kernel_b);
  CHECK(registry.find("Relu", "CPU", DType::kF64, DType::kF64)->compute == kernel_a);
  CHECK(registry.find("Relu", "CPU", DType::kI32, DType::kI32) == nullptr);
  CHECK(registry.find("Relu", "GPU", DType::kF32, DType::kF32) == nullptr);
  CHECK(registry.find("Sum", "CPU", DType::kF32, DType::kF32) == nullptr);
}

TEST_CASE("output dtype constraints restrict a kernel") {
  KernelRegistry registry;
  KernelEntry cast = entry("p", 0, {DType::kF32}, kernel_a);
  cast.op = "Cast";
  cast.output_dtypes = {DType::kF16};
  registry.add(cast);
  CHECK(registry.find("Cast", "CPU", DType::kF32, DType::kF16) != nullptr);
  CHECK(registry.find("Cast", "CPU", DType::kF32, DType::kI32) == nullptr);
}

TEST_CASE("equal priorities for one op, device type and dtype are rejected, naming both plugins") {
  KernelRegistry registry;
  registry.add(entry("first", 1, {DType::kF32, DType::kF64}, kernel_a));
  auto error = runtime_test::error_from(
      [&] { registry.add(entry("second", 1, {DType::kF64}, kernel_b)); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kAlreadyExists);
  CHECK_THAT(error->what(), Contains("'second'"));
  CHECK_THAT(error->what(), Contains("'first'"));
  CHECK_THAT(error->what(), Contains("float64"));
  // Another priority, or a disjoint dtype set, is fine.
  registry.add(entry("second", 2, {DType::kF64}, kernel_b));
  registry.add(entry("third", 1, {DType::kI32}, kernel_b));
  CHECK(registry.all().size() == 3);
}
