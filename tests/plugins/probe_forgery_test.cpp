// Plugins that try to fake their probe's verdict or leave processes behind, probed for real
// (run_probe, hxrt-probe): one that writes "done" or "error x" where the probe reports and then
// crashes or hangs is judged by what its process did; one that forks a child that sleeps on
// leaves nothing running once its probe is over, whatever the verdict.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "loader_support.hpp"
#include "plugins/probe_key.hpp"
#include "plugins/probe_process.hpp"
#include "plugins/probe_protocol.hpp"
#include "temp_dir.hpp"

using Catch::Matchers::Contains;
using hxrt::detail::ProbeOutcome;
using loader_test::cpu_plugin_path;
using loader_test::fixture_file;
using loader_test::ScopedEnv;
namespace protocol = hxrt::detail::probe_protocol;

namespace {

using Clock = std::chrono::steady_clock;

// The fixtures of these tests live apart (tests/fixtures/CMakeLists.txt): none may be loaded
// in-process.
std::string probe_fixture_path(const std::string& what) {
  return HXRT_TEST_FIXTURE_DIR "/probe/" + fixture_file(what);
}

ProbeOutcome probe(const std::string& path, const std::string& name,
                   std::chrono::milliseconds time_limit) {
  return hxrt::detail::run_probe(HXRT_TEST_PROBE_PROGRAM, path, name, "{}", 0, time_limit);
}

// No child of this process is left, running or as a zombie.
bool no_child_left() { return waitpid(-1, nullptr, WNOHANG) == -1 && errno == ECHILD; }

// Whether `pid` is no longer running. A killed process is a zombie until its new parent (init,
// or a subreaper) reaps it, which need not be at once, so that counts as gone.
bool gone(pid_t pid) {
  if (kill(pid, 0) != 0 && errno == ESRCH) return true;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  const size_t name_end = text.rfind(')');
  if (name_end == std::string::npos || name_end + 2 >= text.size()) return true;
  const char state = text[name_end + 2];
  return state == 'Z' || state == 'X';
}

// Whether `pid` is gone within a few seconds; kills it when not, so that a failing test leaves
// nothing behind either.
bool gone_soon(pid_t pid) {
  const Clock::time_point deadline = Clock::now() + std::chrono::seconds(5);
  while (Clock::now() < deadline) {
    if (gone(pid)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  kill(pid, SIGKILL);
  return false;
}

// The child a forks_then_* fixture started, from the file it wrote its pid to.
class ForkedChild {
 public:
  ForkedChild() : dir_("hxrt_probe_forgery_test"), env_("HXRT_FIXTURE_PID_FILE", file()) {}
  std::string file() const { return (dir_.path() / "child.pid").string(); }
  pid_t pid() const {
    std::ifstream in(file());
    long pid = 0;
    in >> pid;
    return static_cast<pid_t>(pid);
  }

 private:
  hxrt_test::TempDir dir_;
  ScopedEnv env_;
};

struct Forgery {
  const char* what;
  const char* reason;
};

}  // namespace

TEST_CASE("a plugin that writes the probe's words and then crashes or hangs is judged fatal") {
  const Forgery forgery = GENERATE(values<Forgery>({
      {"forges_done_then_crashes",
       "plugin 'fixture_forges_done_then_crashes' crashed in hx_plugin_init: SIGSEGV"},
      {"forges_error_then_crashes",
       "plugin 'fixture_forges_error_then_crashes' crashed in hx_plugin_init: SIGSEGV"},
      {"forges_error_then_hangs",
       "plugin 'fixture_forges_error_then_hangs' did not return from "
       "hx_plugin_init within 1 s"},
  }));
  INFO(forgery.what);
  const ProbeOutcome outcome =
      probe(probe_fixture_path(forgery.what), std::string("fixture_") + forgery.what,
            std::chrono::milliseconds(1000));
  INFO(outcome.reason);
  CHECK(outcome.verdict == ProbeOutcome::Verdict::kFatal);
  CHECK_THAT(outcome.reason, Contains(forgery.reason));
  CHECK(no_child_left());
}

TEST_CASE("a plugin that forks a child and hangs leaves no process once its probe is killed") {
  ForkedChild child;
  const ProbeOutcome outcome = probe(probe_fixture_path("forks_then_hangs"),
                                     "fixture_forks_then_hangs", std::chrono::milliseconds(1000));
  INFO(outcome.reason);
  CHECK(outcome.verdict == ProbeOutcome::Verdict::kFatal);
  CHECK_THAT(outcome.reason, Contains("did not return from hx_plugin_init within 1 s"));
  const pid_t pid = child.pid();
  REQUIRE(pid > 0);
  CHECK(gone_soon(pid));
  CHECK(no_child_left());
}

TEST_CASE(
    "a plugin that forks a child and works is judged when the probe ends, and the child "
    "does not outlive it") {
  ForkedChild child;
  const auto limit = std::chrono::seconds(20);
  const Clock::time_point started = Clock::now();
  const ProbeOutcome outcome =
      probe(probe_fixture_path("forks_then_works"), "fixture_forks_then_works", limit);
  const auto took = Clock::now() - started;
  INFO(outcome.reason);
  CHECK(outcome.verdict == ProbeOutcome::Verdict::kSurvived);
  // The child holds the probe's channels open: waiting for them to close would take the limit.
  CHECK(took < limit / 2);
  const pid_t pid = child.pid();
  REQUIRE(pid > 0);
  CHECK(gone_soon(pid));
  CHECK(no_child_left());
}

TEST_CASE("a plugin that works survives its probe") {
  const ProbeOutcome outcome = probe(cpu_plugin_path(), "cpu", std::chrono::seconds(30));
  INFO(outcome.reason);
  CHECK(outcome.verdict == ProbeOutcome::Verdict::kSurvived);
  CHECK(no_child_left());
}

TEST_CASE("hxrt-probe signs its report with the key it reads on standard input") {
  const std::optional<hxrt::detail::ProbeKey> key = hxrt::detail::random_probe_key();
  REQUIRE(key.has_value());
  // Its report goes to descriptor 3 (probe_protocol.hpp), here the pipe popen reads.
  const std::string command = "echo " + hxrt::detail::probe_key_text(*key) + " | " +
                              HXRT_TEST_PROBE_PROGRAM + " " + cpu_plugin_path() +
                              " '{}' 0 3>&1 1>/dev/null 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string output;
  char buffer[256];
  while (size_t got = fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, got);
  const int status = pclose(pipe);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == protocol::kFinishedExit);

  std::istringstream lines(output);
  std::string line;
  std::vector<std::string> texts;
  while (std::getline(lines, line)) {
    if (line.empty()) continue;
    INFO(line);
    const std::optional<protocol::SignedLine> signed_line = protocol::verify_line(*key, line);
    REQUIRE(signed_line.has_value());
    CHECK(signed_line->sequence == texts.size());
    texts.push_back(signed_line->text);
  }
  REQUIRE(texts.size() >= 3);
  CHECK(texts.front() == "step dlopen");
  CHECK(texts.back() == "done");
}

TEST_CASE("hxrt-probe without a key says so, unsigned, and loads nothing") {
  for (const char* input : {"", "not a key", "000102030405060708090a0b0c0d0e0"}) {
    INFO(input);
    const std::string command = std::string("printf '%s' '") + input + "' | " +
                                HXRT_TEST_PROBE_PROGRAM + " " + cpu_plugin_path() +
                                " '{}' 0 3>&1 1>/dev/null 2>&1";
    FILE* pipe = popen(command.c_str(), "r");
    REQUIRE(pipe != nullptr);
    std::string output;
    char buffer[256];
    while (size_t got = fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, got);
    const int status = pclose(pipe);
    CHECK(output ==
          "error no key on standard input (hxrt-probe is started by libhxrt, which "
          "gives it one)\n");
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == protocol::kCouldNotProbeExit);
  }
}
