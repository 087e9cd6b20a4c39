// Enums a host app passes by value may hold any integer (a cast, a stale build of the app):
// each one the API takes is refused, with what it should be, when it is not a named value.
#include <catch2/catch.hpp>
#include <hxrt/hxrt.hpp>

#include "runtime_fixture.hpp"

using runtime_test::cpu_only_options;
using runtime_test::cpu_runtime;
using runtime_test::error_from;

TEST_CASE("A SoftPlacement outside the enum is refused by RuntimeOptions and "
          "set_soft_placement", "[runtime]") {
  hxrt::RuntimeOptions options = cpu_only_options();
  options.soft_placement = static_cast<hxrt::SoftPlacement>(7);
  auto error = error_from([&] { hxrt::Runtime::create(options); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kInvalidArgument);
  CHECK_THAT(error->what(), Catch::Contains("API: /placement/soft_placement: expected one of "
                                            "\"strict\", \"missing_kernel\", \"soft\", got "
                                            "number 7"));

  hxrt::Runtime rt = cpu_runtime();
  const hxrt::SoftPlacement before = rt.soft_placement();
  error = error_from([&] { rt.set_soft_placement(static_cast<hxrt::SoftPlacement>(-1)); });
  REQUIRE(error);
  CHECK_THAT(error->what(), Catch::StartsWith("set_soft_placement: /placement/soft_placement: "
                                              "expected one of") &&
                                Catch::Contains("got number -1"));
  CHECK(rt.soft_placement() == before);
  rt.set_soft_placement(hxrt::SoftPlacement::kSoft);
  CHECK(rt.soft_placement() == hxrt::SoftPlacement::kSoft);
}

TEST_CASE("A LogLevel outside the enum is refused by RuntimeOptions", "[runtime]") {
  hxrt::RuntimeOptions options = cpu_only_options();
  options.log_level = static_cast<hxrt::LogLevel>(42);
  const auto error = error_from([&] { hxrt::Runtime::create(options); });
  REQUIRE(error);
  CHECK_THAT(error->what(), Catch::Contains("API: /log_level: expected one of") &&
                                Catch::Contains("got number 42"));
}

TEST_CASE("A GraphPlacer outside the enum is refused by compile", "[runtime][graph]") {
  hxrt::Runtime rt = cpu_runtime();
  hxrt::GraphBuilder builder(rt);
  const hxrt::NodeOutput y =
      builder.add("y", "Relu", {builder.input("x", hxrt::DType::kF32, {2})});
  hxrt::CompileOptions options;
  options.placer = static_cast<hxrt::GraphPlacer>(5);
  const auto error = error_from([&] { rt.compile(builder.graph(), {y}, options); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kInvalidArgument);
  CHECK_THAT(error->what(), Catch::Contains("CompileOptions::placer is 5, which is not a "
                                            "GraphPlacer"));
  options.placer = hxrt::GraphPlacer::kSimple;
  CHECK(rt.compile(builder.graph(), {y}, options).valid());
}
