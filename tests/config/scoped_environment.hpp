// Environment variables set for one test and restored after it, so that tests run in one
// process (the whole executable) do not see each other's variables.
#pragma once

#include <algorithm>
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

// Every variable the config reads: the settings table's and HXRT_CONFIG, as
// tests/config/cleared_environment.cmake reads them from the table for CTest (the definition
// HXRT_TEST_CONFIG_VARIABLES, "NAME,NAME,..."); settings_table_test.cpp checks the list
// against the table.
inline const std::vector<std::string> kConfigEnvironment = [] {
  std::vector<std::string> names;
  const std::string list = HXRT_TEST_CONFIG_VARIABLES;
  for (size_t start = 0; start < list.size();) {
    const size_t comma = std::min(list.find(',', start), list.size());
    names.push_back(list.substr(start, comma - start));
    start = comma + 1;
  }
  return names;
}();

// Every variable the config reads, unset: a test starts from the defaults whatever the
// shell that runs it has set.
inline void clear_config_environment(ScopedEnvironment& environment) {
  for (const std::string& name : kConfigEnvironment) environment.unset(name);
}

}  // namespace config_test
