// Plugins that keep the letter of the ABI and still hand the core garbage: huge counts, values
// outside an enum, bad or taken names, terminal escape codes, impossible device figures, and
// files in a plugin folder that are no plugins at all. Each is survived with a reason, and the
// CPU plugin beside it keeps working.
#include <catch2/catch.hpp>

#include <dlfcn.h>
#include <hxrt/plugin_api.h>
#include <sys/stat.h>

#include <ctime>
#include <filesystem>
#include <string>
#include <vector>

#include "loader_support.hpp"
#include "temp_dir.hpp"

using Catch::Matchers::Contains;
using Catch::Matchers::Equals;
using hxrt_test::TempDir;
using loader_test::check_cpu_plugin_works;
using loader_test::cpu_plugin_path;
using loader_test::fixture_file;
using loader_test::fixture_path;
using loader_test::LogLines;
using loader_test::report_for;
using loader_test::runtime_with;
using loader_test::skipped_fixture_report;

namespace fs = std::filesystem;

namespace {

// The devices of `type` the runtime made.
std::vector<hxrt::DeviceInfo> devices_of_type(const hxrt::Runtime& runtime,
                                              const std::string& type) {
  std::vector<hxrt::DeviceInfo> found;
  for (const hxrt::DeviceInfo& device : runtime.devices()) {
    if (device.type == type) found.push_back(device);
  }
  return found;
}

// No log line holds an ESC byte, raw or as the C1 CSI.
void check_no_escape_codes(const LogLines& log) {
  for (const LogLines::Line& line : log.lines()) {
    INFO(line.text);
    CHECK(line.text.find('\x1b') == std::string::npos);
    CHECK(line.text.find("\xc2\x9b") == std::string::npos);
  }
}

}  // namespace

TEST_CASE("a plugin whose device_count says a billion is skipped before any device is made") {
  CHECK_THAT(skipped_fixture_report("huge_device_count").reason,
             Equals("device_count returned 1000000000; a plugin has 0 to 4096 devices"));
}

TEST_CASE("100,000 kernels of one op register in seconds, and the 100,001st is refused") {
  LogLines log;
  // Processor time, not wall time: the machine may be busy with other work.
  const std::string many_kernels = HXRT_TEST_FIXTURE_DIR "/slow/" + fixture_file("many_kernels");
  const std::clock_t start = std::clock();
  hxrt::Runtime runtime = runtime_with({cpu_plugin_path(), many_kernels}, log.sink());
  const double cpu_seconds = static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
  const hxrt::PluginReport report = report_for(runtime, fixture_file("many_kernels"));
  INFO("skipped: " << report.reason);
  REQUIRE(report.loaded);

  size_t registered = 0;
  for (const hxrt::KernelInfo& kernel : runtime.kernels()) {
    if (kernel.plugin == "fixture_many_kernels") ++registered;
  }
  CHECK(registered == 100000);
  INFO(log.all());
  CHECK(log.contains("plugin 'fixture_many_kernels': register_kernel: plugin "
                     "'fixture_many_kernels' has registered 100000 kernels, the most one plugin "
                     "may register; list several dtypes in one kernel instead"));
  // Not a benchmark, a bound two orders of magnitude apart from either side: under ASan, a
  // registry that scans an op's kernels on every registration took more than 8 minutes of
  // processor time here, the O(n log n) one about 5 seconds.
  CHECK(cpu_seconds < 120.0);

  hxrt::Tensor x = runtime.tensor<float>({3}, {-1, 0, 2});
  CHECK(runtime.execute("Relu", {x}, {}, "/device:MANY:0").to_vector<float>() ==
        std::vector<float>{0, 0, 2});
  check_cpu_plugin_works(runtime);
}

TEST_CASE("a kernel registered with dtype 42 is refused, naming the value") {
  CHECK_THAT(skipped_fixture_report("bad_dtype").reason,
             Equals("init failed: INVALID_ARGUMENT: register_kernel: dtypes[0] is 42, which is "
                    "not an hx_dtype (1 to 17)"));
}

TEST_CASE("a status made with code 99 is an INTERNAL error that says so") {
  CHECK_THAT(skipped_fixture_report("bad_status_code").reason,
             Equals("init failed: INTERNAL: fixture fails with code 99 (status_create was given "
                    "code 99, which is not an hx_status_code error)"));
}

TEST_CASE("a plugin name with a slash and an escape code is refused, quoted escaped") {
  LogLines log;
  hxrt::Runtime runtime = runtime_with({cpu_plugin_path(), fixture_path("bad_name")}, log.sink());
  const hxrt::PluginReport report = report_for(runtime, fixture_file("bad_name"));
  CHECK_FALSE(report.loaded);
  CHECK_THAT(report.reason,
             Equals("plugin name '../bad\\x1b[2Jname' must be [a-z][a-z0-9_]* of at most 64 "
                    "characters (hx_plugin_api.name in plugin_api.h)"));
  CHECK(devices_of_type(runtime, "BAD_NAME").empty());
  check_no_escape_codes(log);
  check_cpu_plugin_works(runtime);
}

TEST_CASE("a second plugin with a taken name is refused, naming both files") {
  hxrt::Runtime runtime = runtime_with({cpu_plugin_path(), fixture_path("same_name")});
  const hxrt::PluginReport report = report_for(runtime, fixture_file("same_name"));
  CHECK_FALSE(report.loaded);
  CHECK_THAT(report.reason,
             Equals("plugin name 'cpu' is already taken by " + cpu_plugin_path() +
                    ", loaded before " + fixture_path("same_name") +
                    "; two plugins need two names (remove one of the files)"));
  CHECK(devices_of_type(runtime, "SAME_NAME").empty());
  check_cpu_plugin_works(runtime);
}

TEST_CASE("a device reporting UINT64_MAX bytes of memory is left out, with a warning") {
  LogLines log;
  hxrt::Runtime runtime =
      runtime_with({cpu_plugin_path(), fixture_path("huge_memory")}, log.sink());
  CHECK(report_for(runtime, fixture_file("huge_memory")).loaded);
  CHECK(devices_of_type(runtime, "HUGE_MEMORY").empty());
  INFO(log.all());
  CHECK(log.contains("device left out: plugin 'fixture_huge_memory' "
                     "device_properties(HUGE_MEMORY:0) reported memory_total "
                     "18446744073709551615, more than 2^60 bytes (0 means unknown); the device "
                     "is left out until the plugin is fixed"));
  check_cpu_plugin_works(runtime);
}

TEST_CASE("a device whose handle is NULL is left out, with a warning") {
  LogLines log;
  hxrt::Runtime runtime =
      runtime_with({cpu_plugin_path(), fixture_path("null_device")}, log.sink());
  CHECK(report_for(runtime, fixture_file("null_device")).loaded);
  CHECK(devices_of_type(runtime, "NULL_DEVICE").empty());
  INFO(log.all());
  CHECK(log.contains("device left out: plugin 'fixture_null_device' device_get(0) succeeded but "
                     "returned a NULL device handle; fix the plugin"));
  check_cpu_plugin_works(runtime);
}

TEST_CASE("terminal escape codes from a plugin reach the log and device info escaped") {
  LogLines log;
  hxrt::Runtime runtime =
      runtime_with({cpu_plugin_path(), fixture_path("terminal_escapes")}, log.sink());
  REQUIRE(report_for(runtime, fixture_file("terminal_escapes")).loaded);
  INFO(log.all());
  CHECK(log.contains("plugin 'fixture_terminal_escapes': \\x1b[31mred line\\x1b[0m"));
  check_no_escape_codes(log);

  const std::vector<hxrt::DeviceInfo> devices = devices_of_type(runtime, "ESCAPES");
  REQUIRE(devices.size() == 1);
  CHECK(devices[0].product == "\\x1b[31mred device");
  CHECK(devices[0].vendor == "csi\\xc2\\x9b2J vendor");
  check_cpu_plugin_works(runtime);
}

TEST_CASE("only regular files in a plugin folder are tried, a FIFO would block dlopen") {
  const TempDir dir("hxrt_loader_fifo");
  const std::string fifo = (dir.path() / "libhx_fifo.so").string();
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  fs::create_directory(dir.path() / "libhx_folder.so");
  // A symbolic link to a plugin is followed: the CPU plugin loads through it.
  fs::create_symlink(cpu_plugin_path(), dir.path() / "libhx_cpu.so");

  hxrt::Runtime runtime = runtime_with({dir.path().string()});
  const hxrt::PluginReport fifo_report = report_for(runtime, "libhx_fifo.so");
  CHECK_FALSE(fifo_report.loaded);
  CHECK(fifo_report.reason == "not a regular file: a FIFO");
  const hxrt::PluginReport folder_report = report_for(runtime, "libhx_folder.so");
  CHECK_FALSE(folder_report.loaded);
  CHECK(folder_report.reason == "not a regular file: a folder");
  check_cpu_plugin_works(runtime);

  SECTION("and a FIFO named on its own is skipped the same way") {
    hxrt::Runtime named = runtime_with({cpu_plugin_path(), fifo});
    CHECK(report_for(named, "libhx_fifo.so").reason == "not a regular file: a FIFO");
    check_cpu_plugin_works(named);
  }
}

// Passes under any build; under ThreadSanitizer it also shows that a plugin's own thread may
// register and log while the loader closes registration and renames the plugin.
TEST_CASE("a plugin thread that registers while init returns is refused once registration "
          "has closed") {
  LogLines log;
  {
    hxrt::Runtime runtime =
        runtime_with({cpu_plugin_path(), fixture_path("logging_thread")}, log.sink());
    REQUIRE(report_for(runtime, fixture_file("logging_thread")).loaded);
    hxrt::Tensor x = runtime.tensor<float>({2}, {-1, 1});
    CHECK(runtime.execute("Relu", {x}, {}, "/device:LOGGING_THREAD:0").to_vector<float>() ==
          std::vector<float>{0, 1});
  }  // shutdown joins the plugin's thread
  INFO(log.all());
  CHECK(log.contains("plugin 'fixture_logging_thread': register_kernel: plugin "
                     "'fixture_logging_thread' registered after its hx_plugin_init returned; "
                     "register ops and kernels only during hx_plugin_init"));
}

// Under AddressSanitizer a late call that reached the freed handle would be reported; in every
// build, one that blocked on its freed mutex would not return in time.
TEST_CASE("a plugin thread that calls the core after shutdown is refused, never reaches freed "
          "memory") {
  const std::string late =
      std::string(HXRT_TEST_FIXTURE_DIR) + "/late/libhx_fixture_late_caller.so";
  LogLines log;
  {
    hxrt::Runtime runtime = runtime_with({cpu_plugin_path(), late}, log.sink());
    REQUIRE(report_for(runtime, "libhx_fixture_late_caller.so").loaded);
    hxrt::Tensor x = runtime.tensor<float>({2}, {-1, 1});
    CHECK(runtime.execute("Relu", {x}, {}, "/device:LATE:0").to_vector<float>() ==
          std::vector<float>{0, 1});
  }  // shutdown returns, leaving the plugin's thread waiting to call
  void* library = dlopen(late.c_str(), RTLD_NOW | RTLD_NOLOAD);
  REQUIRE(library != nullptr);  // kept mapped by -z nodelete
  using Call = int (*)(int, int32_t*, const char**);
  const auto call = reinterpret_cast<Call>(dlsym(library, "fixture_late_caller_call"));
  REQUIRE(call != nullptr);
  int32_t code = HX_OK;
  const char* message = "";
  REQUIRE(call(10, &code, &message) == 1);
  CHECK(code == HX_FAILED_PRECONDITION);
  CHECK_THAT(message, Catch::Contains("plugin 'fixture_late_caller' called the core after its "
                                      "shutdown returned"));
  CHECK_FALSE(log.contains("a line logged after shutdown"));
  dlclose(library);
}
