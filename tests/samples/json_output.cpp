#include "json_output.hpp"

#include <catch2/catch.hpp>

#include "run_program.hpp"

namespace hxrt_test {

nlohmann::json run_json_program(const std::string& command) {
  const ProgramResult result = run_program(command);
  INFO("command: " << command << "\noutput:\n" << result.output);
  REQUIRE(result.exit_code == 0);
  nlohmann::json parsed;
  REQUIRE_NOTHROW(parsed = nlohmann::json::parse(result.output));
  return parsed;
}

nlohmann::json field(const nlohmann::json& object, const char* key) {
  return object.is_object() && object.contains(key) ? object[key] : nlohmann::json();
}

}  // namespace hxrt_test
