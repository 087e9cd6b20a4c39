// The ops reference installed as share/doc/hxrt/ops.md, as the build generated it.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "builtin_op_calls.hpp"
#include "ops_report.hpp"

using Catch::Contains;

namespace {

std::string generated_reference() {
  std::ifstream in(HXRT_TEST_OPS_REFERENCE);
  REQUIRE(in);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("the generated ops reference has a section with the summary of every core op") {
  const std::string reference = generated_reference();
  for (const auto* schema : hxrt_test_ops::builtin_registry().all()) {
    INFO(schema->name);
    REQUIRE_FALSE(schema->summary.empty());
    CHECK_THAT(reference, Contains("\n## " + schema->name + "\n\n" + schema->summary + "\n"));
    CHECK_THAT(reference, Contains(schema->shape_rule));
  }
}

TEST_CASE("the generated ops reference is the schemas' current text") {
  std::vector<hxrt::OpInfo> ops;
  for (const auto* schema : hxrt_test_ops::builtin_registry().all()) {
    ops.push_back(hxrt::detail::op_info(*schema));
  }
  std::ostringstream expected;
  hxrt_info::print_ops_markdown(expected, ops);
  CHECK(generated_reference() == expected.str());
}
