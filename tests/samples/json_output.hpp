// Reading a program's JSON output without tripping on a missing key: a const json's
// operator[] asserts on one, which would abort the test run instead of failing a check.
#pragma once

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>

namespace hxrt_test {

// The parsed output, after checking that the program exited 0 and printed valid JSON.
nlohmann::json run_json_program(const std::string& command);

// A member of a JSON object, or null.
nlohmann::json field(const nlohmann::json& object, const char* key);

// The first element of `array` for which `predicate` holds, or null.
template <class Predicate>
nlohmann::json find_element(const nlohmann::json& array, Predicate predicate) {
  if (!array.is_array()) return nullptr;
  const auto found = std::find_if(array.begin(), array.end(), predicate);
  return found == array.end() ? nlohmann::json() : *found;
}

template <class Predicate>
bool any_element(const nlohmann::json& array, Predicate predicate) {
  return !find_element(array, predicate).is_null();
}

}  // namespace hxrt_test
