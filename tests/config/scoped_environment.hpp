// Environment variables set for one test and restored after it, so that tests run in one
// process (the whole executable) do not see each other's variables.
#pragma once

#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace config_test {

class ScopedEnvironment {
 public:
  ScopedEnvironment() = default;
  ScopedEnvironment(const ScopedEnvironment&) = delete;
  ScopedEnvironment& operator=(const ScopedEnvironment&) = delete;
  ~ScopedEnvironment() {
    for (const auto& [name, value] : saved_) {
      if (value) {
        setenv(name.c_str(), value->c_str(), 1);
      } else {
        unsetenv(name.c_str());
      }
    }
  }

  void set(const std::string& name, const std::string& value) {
    save(name);
    setenv(name.c_str(), value.c_str(), 1);
  }
  void unset(const std::string& name) {
    save(name);
    unsetenv(name.c_str());
  }

 private:
  void save(const std::string& name) {
    if (saved_.count(name)) return;
    const char* value = std::getenv(name.c_str());
    saved_[name] = value ? std::optional<std::string>(value) : std::nullopt;
  }

  std::map<std::string, std::optional<std::string>> saved_;
};

// Every variable the config reads: the settings table's and HXRT_CONFIG. Written out rather
// than read from the table because tests of the public API include this header too;
// settings_table_test.cpp checks it against the table.
inline const std::vector<std::string> kConfigEnvironment = {
    "HXRT_CONFIG", "HXRT_PLUGIN_PATH", "HXRT_PROBE_PLUGINS", "HXRT_LOG_DEVICE_PLACEMENT",
    "HXRT_LOG_LEVEL", "HXRT_VISIBLE_DEVICES", "HXRT_FORCE_MEMORY_GROWTH", "HXRT_TRACE",
    "HXRT_INTER_OP_THREADS", "HXRT_INTRA_OP_THREADS"};

// Every variable the config reads, unset: a test starts from the defaults whatever the
// shell that runs it has set.
inline void clear_config_environment(ScopedEnvironment& environment) {
  for (const std::string& name : kConfigEnvironment) environment.unset(name);
}

}  // namespace config_test
