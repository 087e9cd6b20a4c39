// Plugin options reach the plugin's init, which may refuse them: the plugin is then skipped
// with its own reason. (How the config reads options is tested in tests/config.)
#include <catch2/catch.hpp>

#include "runtime_fixture.hpp"

using Catch::Matchers::Contains;

TEST_CASE("a plugin refusing an unknown option is skipped with the plugin's reason") {
  hxrt::RuntimeOptions options = runtime_test::cpu_only_options();
  options.plugin_options["cpu"] = R"({"threads": 4})";
  hxrt::Runtime rt = hxrt::Runtime::create(options);
  REQUIRE(rt.load_report().size() == 1);
  CHECK_FALSE(rt.load_report()[0].loaded);
  CHECK_THAT(rt.load_report()[0].reason, Contains("init failed: INVALID_ARGUMENT"));
  CHECK_THAT(rt.load_report()[0].reason, Contains("threads"));
}
