#include "report.hpp"

#include <hxrt/plugin_api.h>

#include <string>

#include "hxtools/text_table.hpp"

namespace hxrt_conformance {
namespace {

std::string counts(int passed, int failed, int skipped) {
  return std::to_string(passed) + " passed, " + std::to_string(failed) + " failed, " +
         std::to_string(skipped) + " skipped";
}

const char* text_result(Result result) {
  // A failure is the line a reader looks for.
  return result == Result::kFail ? "FAIL" : result_name(result);
}

nlohmann::ordered_json summary_json(int passed, int failed, int skipped) {
  return {{"passed", passed}, {"failed", failed}, {"skipped", skipped}};
}

}  // namespace

void print_text_report(std::ostream& out, const std::vector<PluginResult>& results) {
  int passed = 0;
  int failed = 0;
  int skipped = 0;
  for (const PluginResult& result : results) {
    out << "plugin " << result.target.path << "  (options " << result.target.options
        << ", seed " << result.target.seed << ")\n";
    hxtools::TextTable table({"SECTION", "CHECK", "RESULT"});
    for (const Check& check : result.checks) {
      table.add_row({check.section, check.name, text_result(check.result)});
      if (!check.detail.empty()) table.add_note(check.detail);
    }
    table.print(out, "  ");
    out << "summary " << result.target.path << ": "
        << counts(result.passed, result.failed, result.skipped) << "\n\n";
    passed += result.passed;
    failed += result.failed;
    skipped += result.skipped;
  }
  if (results.size() != 1) {
    out << "summary: " << results.size() << " plugins: " << counts(passed, failed, skipped)
        << '\n';
  }
}

nlohmann::ordered_json json_report(const std::vector<PluginResult>& results) {
  nlohmann::ordered_json plugins = nlohmann::ordered_json::array();
  int passed = 0;
  int failed = 0;
  int skipped = 0;
  for (const PluginResult& result : results) {
    nlohmann::ordered_json checks = nlohmann::ordered_json::array();
    for (const Check& check : result.checks) {
      checks.push_back({{"section", check.section},
                        {"check", check.name},
                        {"result", result_name(check.result)},
                        {"detail", check.detail}});
    }
    plugins.push_back({{"path", result.target.path},
                       {"options", result.target.options},
                       {"seed", result.target.seed},
                       {"checks", std::move(checks)},
                       {"summary", summary_json(result.passed, result.failed, result.skipped)}});
    passed += result.passed;
    failed += result.failed;
    skipped += result.skipped;
  }
  return {{"tool", "hxrt-conformance"},
          {"version", HXRT_VERSION},
          {"abi_version", std::to_string(HX_ABI_VERSION_MAJOR) + "." +
                              std::to_string(HX_ABI_VERSION_MINOR)},
          {"plugins", std::move(plugins)},
          {"summary", summary_json(passed, failed, skipped)}};
}

bool any_failed(const std::vector<PluginResult>& results) {
  for (const PluginResult& result : results) {
    if (result.failed > 0) return true;
  }
  return false;
}

}  // namespace hxrt_conformance
