// tests/config/cases: the loader's side of the agreement with config/hxrt.schema.json
// (check_schema.py is the schema's side). valid_*.json must load; invalid_*.json must fail
// with the error that case_errors.json gives for it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "config/config.hpp"
#include "error_from.hpp"

using Catch::Matchers::Contains;
using hxrt_test::error_from;

namespace {

const std::filesystem::path kCases =
    std::filesystem::path(HXRT_TEST_SOURCE_DIR) / "tests/config/cases";

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::filesystem::path> cases_starting_with(const std::string& prefix) {
  std::vector<std::filesystem::path> found;
  for (const auto& entry : std::filesystem::directory_iterator(kCases)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(prefix, 0) == 0 && entry.path().extension() == ".json") {
      found.push_back(entry.path());
    }
  }
  std::sort(found.begin(), found.end());
  return found;
}

nlohmann::json expected_errors() {
  return nlohmann::json::parse(
      read_text(std::filesystem::path(HXRT_TEST_SOURCE_DIR) / "tests/config/case_errors.json"));
}

}  // namespace

TEST_CASE("every case file is a valid_ or an invalid_ case, and each invalid one has its error") {
  const nlohmann::json errors = expected_errors();
  std::set<std::string> invalid;
  for (const auto& entry : std::filesystem::directory_iterator(kCases)) {
    const std::string name = entry.path().filename().string();
    INFO(name);
    CHECK((name.rfind("valid_", 0) == 0 || name.rfind("invalid_", 0) == 0));
    if (name.rfind("invalid_", 0) == 0) {
      invalid.insert(name);
      CHECK(errors.contains(name));
    }
  }
  for (const auto& item : errors.items()) {
    INFO(item.key() << " is in case_errors.json but not in cases/");
    CHECK(invalid.count(item.key()) == 1);
  }
  CHECK(cases_starting_with("valid_").size() >= 10);
  CHECK(invalid.size() >= 50);
}

TEST_CASE("the loader accepts every valid case") {
  for (const auto& path : cases_starting_with("valid_")) {
    INFO(path.filename().string());
    hxrt::detail::Config config;
    CHECK_NOTHROW(
        hxrt::detail::apply_config_text(read_text(path), path.filename().string(), config));
  }
}

TEST_CASE("the loader rejects every invalid case with its error, naming the file") {
  const nlohmann::json errors = expected_errors();
  for (const auto& path : cases_starting_with("invalid_")) {
    const std::string name = path.filename().string();
    INFO(name);
    REQUIRE(errors.contains(name));
    hxrt::detail::Config config;
    auto error =
        error_from([&] { hxrt::detail::apply_config_text(read_text(path), name, config); });
    REQUIRE(error);
    CHECK(error->code() == hxrt::StatusCode::kInvalidArgument);
    CHECK_THAT(error->what(), Contains("file " + name + ": "));
    CHECK_THAT(error->what(), Contains(errors[name]["error"].get<std::string>()));
  }
}
