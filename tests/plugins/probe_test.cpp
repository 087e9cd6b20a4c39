// Probing plugins in a child process (plugins.probe): a plugin that crashes, exits or hangs
// while it is loaded is skipped with the reason and takes nothing else down; good verdicts are
// cached by the file's identity; the host's signals and threads are left alone.
#include <catch2/catch.hpp>
#include <signal.h>
#include <sys/wait.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "loader_support.hpp"
#include "temp_dir.hpp"

using Catch::Matchers::Contains;
using loader_test::check_cpu_plugin_works;
using loader_test::cpu_plugin_path;
using loader_test::error_from;
using loader_test::fixture_file;
using loader_test::fixture_path;
using loader_test::report_for;
using loader_test::ScopedEnv;

namespace {

namespace fs = std::filesystem;

// The fixtures that take down whoever loads them live apart (tests/fixtures/CMakeLists.txt).
std::string crashing_fixture_path(const std::string& what) {
  return HXRT_TEST_FIXTURE_DIR "/crashing/" + fixture_file(what);
}
// So do those that fake their probe's report (probe_forgery_test.cpp).
std::string forging_fixture_path(const std::string& what) {
  return HXRT_TEST_FIXTURE_DIR "/probe/" + fixture_file(what);
}

// A cache of probe verdicts of the test's own: $XDG_CACHE_HOME points into a scratch folder.
class ProbeCacheHome {
 public:
  ProbeCacheHome() : dir_("hxrt_probe_test"), env_("XDG_CACHE_HOME", dir_.path().string()) {}
  const fs::path& dir() const { return dir_.path(); }
  fs::path file() const { return dir_.path() / "hxrt" / "plugin-probes"; }

 private:
  hxrt_test::TempDir dir_;
  ScopedEnv env_;
};

// Every line the runtime logs, at every level.
class LogCapture {
 public:
  hxrt::LogSink sink() const {
    auto state = state_;
    return [state](hxrt::LogLevel, std::string_view message) {
      std::lock_guard<std::mutex> lock(state->mutex);
      state->lines.emplace_back(message);
    };
  }
  bool contains(const std::string& text) const {
    std::lock_guard<std::mutex> lock(state_->mutex);
    for (const std::string& line : state_->lines) {
      if (line.find(text) != std::string::npos) return true;
    }
    return false;
  }
  std::string all() const {
    std::lock_guard<std::mutex> lock(state_->mutex);
    std::string text;
    for (const std::string& line : state_->lines) text += line + "\n";
    return text;
  }

 private:
  struct State {
    std::mutex mutex;
    std::vector<std::string> lines;
  };
  std::shared_ptr<State> state_ = std::make_shared<State>();
};

// How start() starts a runtime: these plugins only, everything logged.
struct Start {
  std::vector<std::string> plugins = {};
  std::optional<bool> probe = true;
  std::string config_path = {};  // "" for none
  std::map<std::string, std::string> plugin_options = {};
};

hxrt::Runtime start(const Start& how, const LogCapture& log = LogCapture()) {
  hxrt::RuntimeOptions options;
  options.use_installed_plugins = false;
  options.plugin_paths = how.plugins;
  options.probe_plugins = how.probe;
  options.config_path = how.config_path;
  options.plugin_options = how.plugin_options;
  options.log_level = hxrt::LogLevel::kDebug;
  options.log_sink = log.sink();
  return hxrt::Runtime::create(options);
}

std::string probed_line(const std::string& path) { return "probed plugin " + path + " "; }
std::string cached_line(const std::string& path) {
  return "plugin " + path + " is known good from an earlier probe";
}

// No child of this process is left, running or as a zombie.
bool no_child_left() { return waitpid(-1, nullptr, WNOHANG) == -1 && errno == ECHILD; }

struct DeadlyFixture {
  const char* what;
  const char* reason;
};

}  // namespace

TEST_CASE("a plugin that dies while it is probed is skipped with the reason, the others run") {
  const DeadlyFixture fixture = GENERATE(values<DeadlyFixture>({
      {"init_segfaults", "plugin 'fixture_init_segfaults' crashed in hx_plugin_init: SIGSEGV"},
      {"init_aborts", "plugin 'fixture_init_aborts' crashed in hx_plugin_init: SIGABRT"},
      {"init_exits", "plugin 'fixture_init_exits' called exit(3) in hx_plugin_init"},
      {"device_count_segfaults",
       "plugin 'fixture_device_count_segfaults' crashed in device_count: SIGSEGV"},
      {"shutdown_segfaults",
       "plugin 'fixture_shutdown_segfaults' crashed in shutdown or dlclose: SIGSEGV"},
  }));
  INFO(fixture.what);
  ProbeCacheHome cache;
  hxrt::Runtime runtime = start({{cpu_plugin_path(), crashing_fixture_path(fixture.what)}});
  const hxrt::PluginReport report = report_for(runtime, fixture_file(fixture.what));
  CHECK_FALSE(report.loaded);
  CHECK_THAT(report.reason, Contains(fixture.reason));
  CHECK_THAT(report.reason, Contains("fix or remove the plugin"));
  check_cpu_plugin_works(runtime);
  CHECK(no_child_left());
}

TEST_CASE("a crash reason quotes the last line the plugin printed") {
  ProbeCacheHome cache;
  hxrt::Runtime runtime = start({{crashing_fixture_path("init_aborts")}});
  CHECK_THAT(report_for(runtime, fixture_file("init_aborts")).reason,
             Contains("its last output: \"fixture_init_aborts: giving up\""));
}

TEST_CASE("a plugin that never returns from init is killed at the time limit") {
  ProbeCacheHome cache;
  start({{cpu_plugin_path()}});  // so that the short limit below applies to the fixture only
  const fs::path config = cache.dir() / "hxrt.json";
  std::ofstream(config) << R"({"plugins": {"probe_timeout_ms": 1000}})";

  hxrt::Runtime runtime =
      start({{cpu_plugin_path(), crashing_fixture_path("init_hangs")}, true, config.string()});
  const hxrt::PluginReport report = report_for(runtime, fixture_file("init_hangs"));
  CHECK_FALSE(report.loaded);
  CHECK_THAT(report.reason, Contains("plugin 'fixture_init_hangs' did not return from "
                                     "hx_plugin_init within 1 s"));
  CHECK_THAT(report.reason, Contains("plugins.probe_timeout_ms"));
  check_cpu_plugin_works(runtime);
  CHECK(no_child_left());
}

TEST_CASE("a plugin that fails without crashing keeps the reason the in-process load gives") {
  ProbeCacheHome cache;
  LogCapture log;
  hxrt::Runtime runtime = start({{cpu_plugin_path(), fixture_path("init_fails")}}, log);
  INFO(log.all());
  CHECK(log.contains(probed_line(fixture_path("init_fails"))));
  CHECK(report_for(runtime, fixture_file("init_fails")).reason ==
        "init failed: INVALID_ARGUMENT: fixture refuses to start: option 'x' missing");
  check_cpu_plugin_works(runtime);
}

TEST_CASE("a good verdict is cached, so the next start-up starts no probe process") {
  ProbeCacheHome cache;
  LogCapture first;
  start({{cpu_plugin_path()}}, first);
  INFO(first.all());
  CHECK(first.contains(probed_line(cpu_plugin_path())));
  CHECK(fs::exists(cache.file()));

  LogCapture second;
  hxrt::Runtime runtime = start({{cpu_plugin_path()}}, second);
  INFO(second.all());
  CHECK(second.contains(cached_line(cpu_plugin_path())));
  CHECK_FALSE(second.contains(probed_line(cpu_plugin_path())));
  check_cpu_plugin_works(runtime);
}

TEST_CASE("a plugin file touched since its probe is probed again") {
  ProbeCacheHome cache;
  const fs::path copy = cache.dir() / "libhx_cpu.so";
  fs::copy_file(cpu_plugin_path(), copy);
  start({{copy.string()}});

  fs::last_write_time(copy, fs::last_write_time(copy) + std::chrono::seconds(2));
  LogCapture log;
  hxrt::Runtime runtime = start({{copy.string()}}, log);
  INFO(log.all());
  CHECK(log.contains(probed_line(copy.string())));
  CHECK_FALSE(log.contains(cached_line(copy.string())));
  check_cpu_plugin_works(runtime);
}

TEST_CASE("a plugin given other options is probed again") {
  ProbeCacheHome cache;
  const std::string sim = HXRT_TEST_PLUGIN_DIR "/libhx_sim.so";
  start({{sim}, true, "", {{"sim", R"({"device_count": 1})"}}});
  LogCapture log;
  hxrt::Runtime runtime = start({{sim}, true, "", {{"sim", R"({"device_count": 2})"}}}, log);
  INFO(log.all());
  CHECK(log.contains(probed_line(sim)));
  CHECK(report_for(runtime, "libhx_sim.so").device_count == 2);
}

TEST_CASE("a corrupt cache file is survived, and replaced by a good one") {
  ProbeCacheHome cache;
  const std::string content = GENERATE(
      std::string("not a cache\n"), std::string("hxrt plugin probe verdicts 1\n\x01\xff junk"),
      std::string("hxrt plugin probe verdicts 1\nabi1.0 x y z\n") + std::string(5000, 'x'),
      std::string(2 << 20, '\n'));
  fs::create_directories(cache.file().parent_path());
  std::ofstream(cache.file(), std::ios::binary) << content;

  LogCapture first;
  hxrt::Runtime runtime = start({{cpu_plugin_path()}}, first);
  INFO(first.all());
  CHECK(first.contains(probed_line(cpu_plugin_path())));
  check_cpu_plugin_works(runtime);

  LogCapture second;
  start({{cpu_plugin_path()}}, second);
  INFO(second.all());
  CHECK(second.contains(cached_line(cpu_plugin_path())));
}

TEST_CASE("a cache that cannot be written costs probes, not the start-up") {
  ProbeCacheHome cache;
  // $XDG_CACHE_HOME is a file, so no folder can be made in it.
  const fs::path file = cache.dir() / "a_file";
  std::ofstream(file) << "x";
  ScopedEnv cache_home("XDG_CACHE_HOME", file.string());
  LogCapture log;
  hxrt::Runtime runtime = start({{cpu_plugin_path()}}, log);
  INFO(log.all());
  CHECK(log.contains("plugin probe verdicts are not kept for the next start-up"));
  check_cpu_plugin_works(runtime);
}

namespace {

std::atomic<int> children_ended{0};
void count_child(int) { children_ended.fetch_add(1); }

}  // namespace

TEST_CASE("with probing off a plugin loads without a probe process") {
  ProbeCacheHome cache;
  const std::optional<bool> off = GENERATE(std::optional<bool>(false), std::nullopt);
  struct sigaction counting = {};
  counting.sa_handler = count_child;
  struct sigaction old;
  REQUIRE(sigaction(SIGCHLD, &counting, &old) == 0);
  children_ended = 0;
  LogCapture log;
  hxrt::Runtime runtime = start({{cpu_plugin_path()}, off}, log);
  sigaction(SIGCHLD, &old, nullptr);
  INFO(log.all());
  CHECK(children_ended.load() == 0);
  CHECK_FALSE(log.contains("probed plugin"));
  CHECK_FALSE(fs::exists(cache.file()));
  check_cpu_plugin_works(runtime);
}

TEST_CASE("HXRT_PROBE_PLUGINS and plugins.probe turn probing on") {
  ProbeCacheHome cache;
  // Without a probe, loading the fixture would end this test's process.
  const std::vector<std::string> plugins = {cpu_plugin_path(),
                                            crashing_fixture_path("init_segfaults")};
  SECTION("the environment") {
    ScopedEnv probe("HXRT_PROBE_PLUGINS", "yes");
    hxrt::Runtime runtime = start({plugins, std::nullopt});
    CHECK_FALSE(report_for(runtime, fixture_file("init_segfaults")).loaded);
    check_cpu_plugin_works(runtime);
    bool found = false;
    for (const hxrt::ConfigSetting& setting : runtime.effective_config()) {
      if (setting.path != "/plugins/probe") continue;
      found = true;
      CHECK(setting.value == "true");
      CHECK(setting.source == "environment HXRT_PROBE_PLUGINS");
    }
    CHECK(found);
  }
  SECTION("the config file") {
    const fs::path config = cache.dir() / "hxrt.json";
    std::ofstream(config) << R"({"plugins": {"probe": true}})";
    hxrt::Runtime runtime = start({plugins, std::nullopt, config.string()});
    CHECK_FALSE(report_for(runtime, fixture_file("init_segfaults")).loaded);
    check_cpu_plugin_works(runtime);
  }
  SECTION("a bad value in the environment is an error naming it") {
    ScopedEnv probe("HXRT_PROBE_PLUGINS", "maybe");
    const auto error = error_from([&] { start({plugins, std::nullopt}); });
    REQUIRE(error.has_value());
    CHECK(error->code() == hxrt::StatusCode::kInvalidArgument);
    CHECK_THAT(error->what(), Contains("environment HXRT_PROBE_PLUGINS: /plugins/probe"));
  }
}

namespace {

std::atomic<int> usr1_calls{0};
void count_usr1(int) { usr1_calls.fetch_add(1); }
void host_segv_handler(int) {}

}  // namespace

TEST_CASE("probing leaves the host's signal handlers, signal mask and threads alone") {
  ProbeCacheHome cache;
  struct sigaction usr1 = {};
  usr1.sa_handler = count_usr1;
  struct sigaction segv = {};
  segv.sa_handler = host_segv_handler;
  struct sigaction old_usr1, old_segv;
  REQUIRE(sigaction(SIGUSR1, &usr1, &old_usr1) == 0);
  REQUIRE(sigaction(SIGSEGV, &segv, &old_segv) == 0);
  sigset_t usr2, old_mask;
  sigemptyset(&usr2);
  sigaddset(&usr2, SIGUSR2);
  REQUIRE(pthread_sigmask(SIG_BLOCK, &usr2, &old_mask) == 0);
  std::atomic<bool> stop{false};
  std::atomic<long> ticks{0};
  std::thread worker([&] {
    while (!stop) {
      ticks.fetch_add(1);
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  });

  {
    hxrt::Runtime runtime = start({{cpu_plugin_path(), crashing_fixture_path("init_segfaults")}});
    CHECK_FALSE(report_for(runtime, fixture_file("init_segfaults")).loaded);
  }

  struct sigaction now;
  REQUIRE(sigaction(SIGSEGV, nullptr, &now) == 0);
  CHECK(now.sa_handler == host_segv_handler);
  REQUIRE(sigaction(SIGUSR1, nullptr, &now) == 0);
  CHECK(now.sa_handler == count_usr1);
  raise(SIGUSR1);
  CHECK(usr1_calls.load() == 1);
  sigset_t mask;
  REQUIRE(pthread_sigmask(SIG_BLOCK, nullptr, &mask) == 0);
  CHECK(sigismember(&mask, SIGUSR2) == 1);
  const long before = ticks.load();
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  CHECK(ticks.load() > before);

  stop = true;
  worker.join();
  pthread_sigmask(SIG_SETMASK, &old_mask, nullptr);
  sigaction(SIGSEGV, &old_segv, nullptr);
  sigaction(SIGUSR1, &old_usr1, nullptr);
}

TEST_CASE("a host that ignores SIGCHLD still learns that a plugin ended its probe") {
  ProbeCacheHome cache;
  struct sigaction ignore = {};
  ignore.sa_handler = SIG_IGN;
  struct sigaction old;
  REQUIRE(sigaction(SIGCHLD, &ignore, &old) == 0);
  hxrt::Runtime runtime = start({{cpu_plugin_path(), crashing_fixture_path("init_segfaults")}});
  sigaction(SIGCHLD, &old, nullptr);
  const hxrt::PluginReport report = report_for(runtime, fixture_file("init_segfaults"));
  CHECK_FALSE(report.loaded);
  CHECK_THAT(report.reason, Contains("plugin 'fixture_init_segfaults' ended its probe process "
                                     "in hx_plugin_init"));
  check_cpu_plugin_works(runtime);
}

TEST_CASE("a plugin that writes the probe's 'done' and then crashes is skipped, not loaded") {
  ProbeCacheHome cache;
  const bool ignore_sigchld = GENERATE(false, true);
  INFO("SIGCHLD ignored: " << ignore_sigchld);
  struct sigaction ignore = {};
  ignore.sa_handler = ignore_sigchld ? SIG_IGN : SIG_DFL;
  struct sigaction old;
  REQUIRE(sigaction(SIGCHLD, &ignore, &old) == 0);
  // Were its forged "done" believed, loading it would end this test's process.
  hxrt::Runtime runtime =
      start({{cpu_plugin_path(), forging_fixture_path("forges_done_then_crashes")}});
  sigaction(SIGCHLD, &old, nullptr);
  const hxrt::PluginReport report = report_for(runtime, fixture_file("forges_done_then_crashes"));
  CHECK_FALSE(report.loaded);
  CHECK_THAT(report.reason, Contains(ignore_sigchld
                                         ? "ended its probe process in hx_plugin_init"
                                         : "crashed in hx_plugin_init: SIGSEGV"));
  check_cpu_plugin_works(runtime);
  CHECK(no_child_left());
}
