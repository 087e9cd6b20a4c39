// The option blas_core (plugins/cpu/blas/blas_core_choice.hpp): which OpenBLAS core MatMul runs
// on. OpenBLAS keeps one core per process, and the plugin settles it once per process, so each
// test case needs a process of its own: CTest runs every case apart (catch_discover_tests),
// and the case tagged [.environment] runs only in the CTest entry that starts it with
// OPENBLAS_CORETYPE set. The plugin's OpenBLAS is this test's (one library per process), so
// openblas_get_corename here reads the core the plugin left in use.
#include <catch2/catch.hpp>
#include <cblas.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include <hxrt/hxrt.hpp>

#include "blas/blas_core_choice.hpp"
#include "blas/openblas_cores.hpp"
#include "error_from.hpp"

namespace {

struct LogLine {
  hxrt::LogLevel level;
  std::string text;
};

// A runtime of the CPU plugin alone with `cpu_options`, keeping the lines the plugin logs.
hxrt::Runtime cpu_runtime(const std::string& cpu_options, std::vector<LogLine>* lines) {
  hxrt::RuntimeOptions options;
  options.use_installed_plugins = false;
  options.plugin_paths = {std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_cpu.so"};
  options.plugin_options = {{"cpu", cpu_options}};
  options.log_level = hxrt::LogLevel::kInfo;
  options.log_sink = [lines](hxrt::LogLevel level, std::string_view text) {
    if (lines != nullptr && text.find("plugin 'cpu': ") != std::string_view::npos) {
      lines->push_back({level, std::string(text)});
    }
  };
  return hxrt::Runtime::create(options);
}

std::string core_in_use() { return openblas_get_corename(); }

// The one line the plugin logged about OpenBLAS's core.
const LogLine& core_line(const std::vector<LogLine>& lines) {
  REQUIRE(lines.size() == 1);
  CHECK_THAT(lines[0].text, Catch::Contains("OpenBLAS core "));
  return lines[0];
}

// The cores this CPU runs and this OpenBLAS holds: the plugin's own list, as its error
// messages give it ("auto" first).
std::vector<std::string> choices() {
  const auto error = hxrt_test::error_from([] { cpu_runtime(R"({"blas_core": 0})", nullptr); });
  REQUIRE(error);
  const std::string text = error->what();
  const size_t list = text.find("the choices on this machine are ");
  REQUIRE(list != std::string::npos);
  std::vector<std::string> names;
  for (size_t open = text.find('"', list); open != std::string::npos;
       open = text.find('"', text.find('"', open + 1) + 1)) {
    const size_t close = text.find('"', open + 1);
    names.push_back(text.substr(open + 1, close - open - 1));
  }
  return names;
}

// MatMul of n x n operands of small integers (exact in float) on either GEMM path, against a
// triple loop.
void check_matmul(hxrt::Runtime& runtime, int64_t n) {
  CAPTURE(n);
  std::vector<float> a(static_cast<size_t>(n * n)), b(a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    a[i] = static_cast<float>(static_cast<int>(i % 7) - 3);
    b[i] = static_cast<float>(static_cast<int>(i % 5) - 2);
  }
  const std::vector<float> c =
      runtime.execute("MatMul", {runtime.tensor<float>({n, n}, a), runtime.tensor<float>({n, n}, b)})
          .to_vector<float>();
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      float expected = 0;
      for (int64_t p = 0; p < n; ++p) {
        expected += a[static_cast<size_t>(i * n + p)] * b[static_cast<size_t>(p * n + j)];
      }
      REQUIRE(c[static_cast<size_t>(i * n + j)] == expected);
    }
  }
}

bool environment_sets_core() {
  const char* forced = std::getenv("OPENBLAS_CORETYPE");
  if (forced == nullptr || *forced == '\0') return false;
  std::cout << "skipped: OPENBLAS_CORETYPE=" << forced
            << " is set, and OpenBLAS took it at load\n";
  return true;
}

// The widest vectors, in bits, of the GEMM kernels of the core OpenBLAS calls `name`.
int vector_bits(const std::string& name) {
  const hxcpu::OpenBlasCore* core = hxcpu::find_openblas_core(name);
  return core == nullptr ? 0 : core->vector_bits;
}

}  // namespace

TEST_CASE("auto takes the first of Cooperlake, SkylakeX, Haswell, Sandybridge the CPU runs, "
          "unless OpenBLAS's pick is as wide",
          "[cpu][blas_core]") {
  const auto core = [](const char* name) { return hxcpu::find_openblas_core(name); };
  const std::vector<const hxcpu::OpenBlasCore*> zen4 = {
      core("Sandybridge"), core("Haswell"), core("Zen"), core("SkylakeX"), core("Cooperlake")};
  CHECK(hxcpu::automatic_core(zen4, core("Zen")) == core("Cooperlake"));
  CHECK(hxcpu::automatic_core(zen4, core("Haswell")) == core("Cooperlake"));
  CHECK(hxcpu::automatic_core(zen4, core("Cooperlake")) == nullptr);
  CHECK(hxcpu::automatic_core(zen4, core("SkylakeX")) == nullptr);
  CHECK(hxcpu::automatic_core(zen4, nullptr) == core("Cooperlake"));
  const std::vector<const hxcpu::OpenBlasCore*> skylake_x = {core("Haswell"), core("SkylakeX")};
  CHECK(hxcpu::automatic_core(skylake_x, core("Haswell")) == core("SkylakeX"));
  const std::vector<const hxcpu::OpenBlasCore*> zen3 = {core("Sandybridge"), core("Haswell"),
                                                        core("Zen")};
  CHECK(hxcpu::automatic_core(zen3, core("Zen")) == nullptr);
  CHECK(hxcpu::automatic_core(zen3, core("Prescott")) == core("Haswell"));
  const std::vector<const hxcpu::OpenBlasCore*> old = {core("Prescott"), core("Core2")};
  CHECK(hxcpu::automatic_core(old, core("Prescott")) == nullptr);
}

TEST_CASE("auto leaves this machine on the core the rule gives, and MatMul is right on it",
          "[cpu][blas_core]") {
  if (environment_sets_core()) return;
  const std::string picked = core_in_use();  // OpenBLAS's own pick, at load
  const std::vector<std::string> names = choices();
  // The rule, restated: the first of these the CPU runs, unless OpenBLAS's pick is as wide.
  std::string expected = picked;
  for (const char* preferred : {"Cooperlake", "SkylakeX", "Haswell", "Sandybridge"}) {
    if (std::find(names.begin(), names.end(), preferred) == names.end()) continue;
    if (vector_bits(picked) < vector_bits(preferred)) expected = preferred;
    break;
  }
  std::vector<LogLine> lines;
  hxrt::Runtime runtime = cpu_runtime("{}", &lines);
  CAPTURE(picked);
  CHECK(core_in_use() == expected);
  CHECK(core_line(lines).level == hxrt::LogLevel::kInfo);
  CHECK_THAT(lines[0].text, Catch::Contains("OpenBLAS core " + expected));
  check_matmul(runtime, 2);
  check_matmul(runtime, 100);
}

TEST_CASE("A forced core is the one in use, MatMul is right on it, and it stays for the process",
          "[cpu][blas_core]") {
  if (environment_sets_core()) return;
  const std::string picked = core_in_use();
  const std::vector<std::string> names = choices();
  // The newest core the CPU runs that OpenBLAS did not pick itself: a real switch.
  std::string forced;
  for (const std::string& name : names) {
    if (name != "auto" && name != picked) forced = name;
  }
  REQUIRE_FALSE(forced.empty());
  CAPTURE(picked, forced);
  std::vector<LogLine> lines;
  hxrt::Runtime runtime = cpu_runtime(R"({"blas_core": ")" + forced + "\"}", &lines);
  CHECK(core_in_use() == forced);
  CHECK(core_line(lines).text ==
        "plugin 'cpu': OpenBLAS core " + forced + " (OpenBLAS picked " + picked +
            "; blas_core \"" + forced + "\")");
  check_matmul(runtime, 2);
  check_matmul(runtime, 100);

  // Once per process: a second runtime that asks for OpenBLAS's own pick is told it stays.
  std::vector<LogLine> second_lines;
  hxrt::Runtime second = cpu_runtime(R"({"blas_core": ")" + picked + "\"}", &second_lines);
  CHECK(core_in_use() == forced);
  CHECK(core_line(second_lines).level == hxrt::LogLevel::kWarning);
  CHECK_THAT(second_lines[0].text,
             Catch::Contains("OpenBLAS core " + forced + ", settled by an earlier init") &&
                 Catch::Contains("OpenBLAS has one core per process, so blas_core \"" + picked +
                                 "\" is not applied"));
  check_matmul(second, 100);
}

TEST_CASE("blas_core values the plugin cannot honour are refused at the option's path",
          "[cpu][blas_core]") {
  const std::string choice_list = [] {
    std::string list;
    for (const std::string& name : choices()) list += (list.empty() ? "\"" : ", \"") + name + "\"";
    return list;
  }();
  const auto refusal = [](const std::string& value) {
    const auto error =
        hxrt_test::error_from([&] { cpu_runtime(R"({"blas_core": )" + value + "}", nullptr); });
    REQUIRE(error);
    CHECK(error->code() == hxrt::StatusCode::kInvalidArgument);
    const std::string text = error->what();
    CHECK_THAT(text, Catch::StartsWith("API: /plugins/options/cpu/blas_core: plugin "));
    return text;
  };
  CHECK_THAT(refusal(R"("Foo")"),
             Catch::Contains("cpu plugin option 'blas_core': unknown OpenBLAS core \"Foo\"; the "
                             "choices on this machine are " + choice_list));
  CHECK_THAT(refusal("true"),
             Catch::Contains("cpu plugin option 'blas_core': expected \"auto\" or the name of an "
                             "OpenBLAS core, got true"));
  CHECK_THAT(refusal(R"("")"), Catch::Contains("unknown OpenBLAS core \"\""));
  // A core this CPU lacks the instructions for, if there is one (on x86-64 there always is:
  // no CPU has both AVX-512 and AMD's FMA4).
  for (const hxcpu::OpenBlasCore& core : hxcpu::openblas_cores()) {
    const std::string missing = hxcpu::missing_features(core, hxcpu::cpu_features());
    if (missing.empty()) continue;
    CHECK_THAT(refusal(std::string("\"") + core.name + "\""),
               Catch::Contains(std::string("this CPU cannot run OpenBLAS core \"") + core.name +
                               "\" (it lacks " + missing + ")"));
  }
  const auto unknown_key = hxrt_test::error_from([] { cpu_runtime(R"({"blas": "auto"})", nullptr); });
  REQUIRE(unknown_key);
  CHECK_THAT(unknown_key->what(),
             Catch::StartsWith("API: /plugins/options/cpu/blas: plugin ") &&
                 Catch::Contains("unknown option 'blas'; the cpu plugin's only option is "
                                 "blas_core"));
}

// Run by its own CTest entry, with OPENBLAS_CORETYPE=Prescott in the environment.
TEST_CASE("OPENBLAS_CORETYPE in the environment wins over blas_core", "[.environment]") {
  REQUIRE(std::string(std::getenv("OPENBLAS_CORETYPE")) == "Prescott");
  REQUIRE(core_in_use() == "Prescott");
  std::vector<LogLine> lines;
  hxrt::Runtime runtime = cpu_runtime(R"({"blas_core": "Nehalem"})", &lines);
  CHECK(core_in_use() == "Prescott");
  CHECK(core_line(lines).level == hxrt::LogLevel::kWarning);
  CHECK(lines[0].text ==
        "plugin 'cpu': OpenBLAS core Prescott: OPENBLAS_CORETYPE=Prescott sets it, so blas_core "
        "\"Nehalem\" is not applied");
  check_matmul(runtime, 100);
  std::vector<LogLine> auto_lines;
  hxrt::Runtime automatic = cpu_runtime("{}", &auto_lines);
  CHECK(core_line(auto_lines).text ==
        "plugin 'cpu': OpenBLAS core Prescott (OPENBLAS_CORETYPE=Prescott sets it; blas_core "
        "\"auto\" leaves it)");
}
