// Each fixture of the issue, run through every section: it fails where it is wrong (and in
// the threads section, which repeats the same work), nowhere else, and no section crashes.
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "conformance_run.hpp"

namespace {

std::set<std::string> failed_sections(const hxrt_test::ConformanceRun& run) {
  std::set<std::string> sections;
  for (const hxrt_test::ConformanceCheck& check : run.checks) {
    if (check.result == "fail") sections.insert(check.section);
  }
  return sections;
}

bool a_section_crashed(const hxrt_test::ConformanceRun& run) {
  for (const hxrt_test::ConformanceCheck& check : run.checks) {
    if (check.check.find("runs to the end") != std::string::npos) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("each broken fixture fails only the sections it is wrong in", "[conformance]") {
  struct Case {
    const char* fixture;
    std::set<std::string> sections;
  };
  const Case cases[] = {
      {"wrong_result", {"kernels", "threads"}},
      {"truncating_copy", {"memory", "threads"}},
      {"misaligned_alloc", {"memory"}},
      {"early_stream", {"streams", "threads"}},
      {"careless_timing", {"streams"}},
      {"unlimited_allocate", {"memory"}},
      {"undeclared_memory", {"devices"}},
      {"dense_broadcast", {"kernels"}},
      {"undeclined_compute", {"kernels"}},
      {"declining", {"kernels"}},
      {"instance_leak", {"abi"}},
      {"handle_reuse", {"in_flight"}},
      {"offset_blind_host_buffer", {"memory"}},
  };
  for (const Case& c : cases) {
    INFO("fixture " << c.fixture);
    const hxrt_test::ConformanceRun run =
        hxrt_test::run_conformance(hxrt_test::conformance_fixture(c.fixture));
    INFO(run.failures());
    CHECK(run.exit_code == 1);
    CHECK(failed_sections(run) == c.sections);
    CHECK_FALSE(a_section_crashed(run));
  }
}
