// Kernel lookup by (op, plugin, T, output dtype) in priority order, and ties within a plugin
// rejected (ABI 2.0: a kernel runs only on the devices of the plugin that registered it).
#include <catch2/catch.hpp>

#include "plugins/kernel_registry.hpp"
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

TEST_CASE("a plugin's kernels that accept the dtype come highest priority first") {
  KernelRegistry registry;
  registry.add(entry("cpu", 0, {DType::kF32, DType::kF64}, kernel_a));
  registry.add(entry("cpu", 5, {DType::kF32}, kernel_b));
  const auto f32 = registry.find("Relu", "cpu", DType::kF32, DType::kF32);
  REQUIRE(f32.size() == 2);
  CHECK(f32[0]->compute == kernel_b);
  CHECK(f32[1]->compute == kernel_a);
  const auto f64 = registry.find("Relu", "cpu", DType::kF64, DType::kF64);
  REQUIRE(f64.size() == 1);
  CHECK(f64[0]->compute == kernel_a);
  CHECK(registry.find("Relu", "cpu", DType::kI32, DType::kI32).empty());
  CHECK(registry.find("Sum", "cpu", DType::kF32, DType::kF32).empty());
}

TEST_CASE("a kernel is found only for the plugin that registered it, whatever its device type") {
  KernelRegistry registry;
  registry.add(entry("cpu", 0, {DType::kF32}, kernel_a));
  CHECK(registry.find("Relu", "other_cpu", DType::kF32, DType::kF32).empty());
  CHECK(registry.find("Relu", "CPU", DType::kF32, DType::kF32).empty());
}

TEST_CASE("output dtype constraints restrict a kernel") {
  KernelRegistry registry;
  KernelEntry cast = entry("p", 0, {DType::kF32}, kernel_a);
  cast.op = "Cast";
  cast.output_dtypes = {DType::kF16};
  registry.add(cast);
  CHECK(registry.find("Cast", "p", DType::kF32, DType::kF16).size() == 1);
  CHECK(registry.find("Cast", "p", DType::kF32, DType::kI32).empty());
}

TEST_CASE("equal priorities for one op and dtype within one plugin are rejected") {
  KernelRegistry registry;
  registry.add(entry("first", 1, {DType::kF32, DType::kF64}, kernel_a));
  auto error = runtime_test::error_from(
      [&] { registry.add(entry("first", 1, {DType::kF64}, kernel_b)); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kAlreadyExists);
  CHECK_THAT(error->what(), Contains("'first'"));
  CHECK_THAT(error->what(), Contains("float64"));
  CHECK_THAT(error->what(), Contains("another priority"));
  // Another priority, a disjoint dtype set, or another plugin (two plugins of one device type
  // never compete for a kernel) is fine.
  registry.add(entry("first", 2, {DType::kF64}, kernel_b));
  registry.add(entry("first", 1, {DType::kI32}, kernel_b));
  registry.add(entry("second", 1, {DType::kF32, DType::kF64}, kernel_b));
  CHECK(registry.all().size() == 4);
}

TEST_CASE("the kernel listing names only the plugins asked for") {
  KernelRegistry registry;
  registry.add(entry("present", 0, {DType::kF32}, kernel_a));
  KernelEntry absent = entry("absent", 0, {DType::kF64}, kernel_b);
  absent.device_type = "GPU";
  registry.add(absent);
  const std::string listing = registry.describe_kernels(
      "Relu", [](const std::string& plugin) { return plugin == "present"; });
  CHECK_THAT(listing, Contains("device='CPU'; T in [float32]"));
  CHECK_THAT(listing, Contains("plugin 'present'"));
  CHECK_THAT(listing, !Contains("GPU"));
  CHECK(registry.describe_kernels("Relu", [](const std::string&) { return false; }) ==
        "  <no registered kernels>");
}
