#include "loader_support.hpp"

#include <cstdlib>
#include <filesystem>

#include <catch2/catch.hpp>

namespace loader_test {

namespace fs = std::filesystem;

std::string cpu_plugin_path() { return HXRT_TEST_PLUGIN_DIR "/libhx_cpu.so"; }

std::string fixture_file(const std::string& what) { return "libhx_fixture_" + what + ".so"; }

std::string fixture_path(const std::string& what) {
  return HXRT_TEST_FIXTURE_DIR "/" + fixture_file(what);
}

hxrt::Runtime runtime_with(const std::vector<std::string>& plugin_paths, hxrt::LogSink log_sink) {
  hxrt::RuntimeOptions options;
  options.use_installed_plugins = false;
  options.plugin_paths = plugin_paths;
  options.log_sink = std::move(log_sink);
  return hxrt::Runtime::create(options);
}

std::vector<hxrt::PluginReport> reports_for(const hxrt::Runtime& runtime,
                                            const std::string& file_name) {
  std::vector<hxrt::PluginReport> found;
  for (const hxrt::PluginReport& report : runtime.load_report()) {
    if (fs::path(report.path).filename() == file_name) found.push_back(report);
  }
  return found;
}

hxrt::PluginReport report_for(const hxrt::Runtime& runtime, const std::string& file_name) {
  std::vector<hxrt::PluginReport> found = reports_for(runtime, file_name);
  INFO("load report entries for " << file_name);
  REQUIRE(found.size() == 1);
  return found.front();
}

std::vector<std::string> physical_devices_of_type(const hxrt::Runtime& runtime,
                                                  const std::string& type) {
  std::vector<std::string> found;
  for (const hxrt::PhysicalDeviceInfo& device : runtime.physical_devices()) {
    if (device.type == type) found.push_back(device.short_name + " from " + device.plugin);
  }
  return found;
}

void check_cpu_plugin_works(hxrt::Runtime& runtime) {
  hxrt::PluginReport cpu = report_for(runtime, "libhx_cpu.so");
  INFO("CPU plugin skipped: " << cpu.reason);
  REQUIRE(cpu.loaded);
  hxrt::Tensor a = runtime.tensor<float>({2, 3}, {1, 2, 3, 4, 5, 6});
  hxrt::Tensor b = runtime.tensor<float>({3, 2}, {7, 8, 9, 10, 11, 12});
  hxrt::Tensor c = runtime.execute("MatMul", {a, b}, {}, "/device:CPU:0");
  CHECK(c.device() == "/job:localhost/replica:0/task:0/device:CPU:0");
  CHECK(c.to_vector<float>() == std::vector<float>{58, 64, 139, 154});
}

hxrt::PluginReport skipped_fixture_report(const std::string& what) {
  hxrt::Runtime runtime = runtime_with({cpu_plugin_path(), fixture_path(what)});
  hxrt::PluginReport report = report_for(runtime, fixture_file(what));
  CHECK_FALSE(report.loaded);
  check_cpu_plugin_works(runtime);
  return report;
}

hxrt::LogSink LogLines::sink() const {
  std::shared_ptr<Shared> shared = shared_;
  return [shared](hxrt::LogLevel level, std::string_view text) {
    std::lock_guard<std::mutex> lock(shared->mutex);
    shared->lines.push_back({level, std::string(text)});
  };
}

std::vector<LogLines::Line> LogLines::lines() const {
  std::lock_guard<std::mutex> lock(shared_->mutex);
  return shared_->lines;
}

bool LogLines::contains(const std::string& text) const {
  for (const Line& line : lines()) {
    if (line.text.find(text) != std::string::npos) return true;
  }
  return false;
}

std::string LogLines::all() const {
  std::string text;
  for (const Line& line : lines()) text += line.text + "\n";
  return text;
}

ScopedEnv::ScopedEnv(std::string name, const std::string& value) : name_(std::move(name)) {
  if (const char* old = std::getenv(name_.c_str())) saved_ = old;
  setenv(name_.c_str(), value.c_str(), 1);
}

ScopedEnv::~ScopedEnv() {
  if (saved_) {
    setenv(name_.c_str(), saved_->c_str(), 1);
  } else {
    unsetenv(name_.c_str());
  }
}

}  // namespace loader_test
