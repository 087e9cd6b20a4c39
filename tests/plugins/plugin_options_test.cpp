// The services' option getters (ABI 2.5, core/src/plugins/plugin_options.cpp): typed reads of
// a plugin's options object during its init, absent options, options of the wrong type, the
// refusal of unknown options with the closest known name, careless arguments, and reads after
// init returned. The handle is made as the loader makes it, options parsed by plugin_init_args.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <utility>

#include "plugins/core_handle.hpp"
#include "plugins/init_args.hpp"

using Catch::Matchers::Contains;
using Catch::Matchers::Equals;

namespace {

struct InitCore {
  hxrt::detail::CoreHandle core = hxrt::detail::make_core_handle();
  std::string options;
  hx_plugin_init_args args;
  const hx_core_services& services;

  explicit InitCore(std::string options_json)
      : options(std::move(options_json)),
        args(hxrt::detail::plugin_init_args(core.get(), options, 0)),
        services(*args.services) {
    core->plugin_name = "reader";
  }

  // Frees `status` and returns its code and message; HX_OK and "" for NULL.
  std::pair<int32_t, std::string> answer(hx_status* status) const {
    std::pair<int32_t, std::string> result{services.status_code(status),
                                           services.status_message(status)};
    services.status_destroy(status);
    return result;
  }
};

constexpr const char* kOptions =
    R"({"fast": true, "count": 12, "whole": 3.0, "scale": 0.5, "big": 9223372036854775807,
        "name": "gpu-a", "text_with_nul": "a\u0000b"})";

}  // namespace

TEST_CASE("option getters read each type the plugin asks for, and say when one is absent") {
  const InitCore init(kOptions);
  bool fast = false;
  CHECK(init.answer(init.services.option_bool(init.args.core, "fast", &fast)).first == HX_OK);
  CHECK(fast);
  int64_t count = 0;
  CHECK(init.answer(init.services.option_int(init.args.core, "count", &count)).first == HX_OK);
  CHECK(count == 12);
  // 3.0 is an integer, as JSON Schema and the config count them.
  CHECK(init.answer(init.services.option_int(init.args.core, "whole", &count)).first == HX_OK);
  CHECK(count == 3);
  CHECK(init.answer(init.services.option_int(init.args.core, "big", &count)).first == HX_OK);
  CHECK(count == INT64_MAX);
  double scale = 0;
  CHECK(init.answer(init.services.option_float(init.args.core, "scale", &scale)).first == HX_OK);
  CHECK(scale == 0.5);
  // An integer reads as a float too.
  CHECK(init.answer(init.services.option_float(init.args.core, "count", &scale)).first == HX_OK);
  CHECK(scale == 12.0);
  const char* name = nullptr;
  size_t length = 0;
  CHECK(init.answer(init.services.option_string(init.args.core, "name", &name, &length)).first ==
        HX_OK);
  CHECK(std::string(name, length) == "gpu-a");
  CHECK(name[length] == '\0');

  int64_t untouched = 7;
  const auto absent = init.answer(init.services.option_int(init.args.core, "depth", &untouched));
  CHECK(absent.first == HX_NOT_FOUND);
  CHECK_THAT(absent.second, Equals("reader plugin options: 'depth' is not given; use the "
                                   "plugin's default"));
  CHECK(untouched == 7);
}

TEST_CASE("an option of another type is refused naming it, what was expected and what was given") {
  const InitCore init(kOptions);
  int64_t count = 0;
  auto refused = init.answer(init.services.option_int(init.args.core, "scale", &count));
  CHECK(refused.first == HX_INVALID_ARGUMENT);
  CHECK_THAT(refused.second,
             Equals("reader plugin options: 'scale' must be an integer, got number 0.5"));
  bool flag = false;
  refused = init.answer(init.services.option_bool(init.args.core, "name", &flag));
  CHECK_THAT(refused.second,
             Equals("reader plugin options: 'name' must be true or false, got string \"gpu-a\""));
  double number = 0;
  refused = init.answer(init.services.option_float(init.args.core, "fast", &number));
  CHECK_THAT(refused.second, Contains("'fast' must be a number, got boolean true"));
  const char* text = nullptr;
  size_t length = 0;
  refused = init.answer(init.services.option_string(init.args.core, "count", &text, &length));
  CHECK_THAT(refused.second, Contains("'count' must be a string, got number 12"));
  // A C string cannot hold it, so it is refused rather than cut.
  refused =
      init.answer(init.services.option_string(init.args.core, "text_with_nul", &text, &length));
  CHECK(refused.first == HX_INVALID_ARGUMENT);
  CHECK_THAT(refused.second, Contains("must be a string without NUL"));
  CHECK(text == nullptr);
}

TEST_CASE("option_keys refuses an unknown option with the closest known name, or lists them") {
  const InitCore init(R"({"device_cont": 2})");
  const char* const known[] = {"device_count", "memory_mb"};
  auto refused = init.answer(init.services.option_keys(init.args.core, known, 2));
  CHECK(refused.first == HX_INVALID_ARGUMENT);
  CHECK_THAT(refused.second, Equals("reader plugin options: unknown option 'device_cont'; did "
                                    "you mean 'device_count'?"));
  const InitCore far(R"({"colour": "blue"})");
  refused = far.answer(far.services.option_keys(far.args.core, known, 2));
  CHECK_THAT(refused.second, Equals("reader plugin options: unknown option 'colour'; the options "
                                    "it takes: device_count, memory_mb"));
  refused = far.answer(far.services.option_keys(far.args.core, nullptr, 0));
  CHECK_THAT(refused.second, Equals("reader plugin options: unknown option 'colour' (the reader "
                                    "plugin takes no options)"));
  const InitCore fine(R"({"memory_mb": 64})");
  CHECK(fine.answer(fine.services.option_keys(fine.args.core, known, 2)).first == HX_OK);
  const InitCore none("{}");
  CHECK(none.answer(none.services.option_keys(none.args.core, nullptr, 0)).first == HX_OK);
}

TEST_CASE("option getters refuse NULL arguments and reads after init returned") {
  const InitCore init(kOptions);
  int64_t count = 0;
  CHECK(init.answer(init.services.option_int(nullptr, "count", &count)).first ==
        HX_INVALID_ARGUMENT);
  CHECK(init.answer(init.services.option_int(init.args.core, nullptr, &count)).first ==
        HX_INVALID_ARGUMENT);
  CHECK(init.answer(init.services.option_int(init.args.core, "count", nullptr)).first ==
        HX_INVALID_ARGUMENT);
  const char* text = nullptr;
  CHECK(init.answer(init.services.option_string(init.args.core, "name", &text, nullptr)).first ==
        HX_INVALID_ARGUMENT);
  const char* const with_null[] = {"count", nullptr};
  auto refused = init.answer(init.services.option_keys(init.args.core, with_null, 2));
  CHECK(refused.first == HX_INVALID_ARGUMENT);
  CHECK_THAT(refused.second, Contains("known[1] is NULL"));
  CHECK(init.answer(init.services.option_keys(init.args.core, nullptr, 1)).first ==
        HX_INVALID_ARGUMENT);

  {
    std::lock_guard<std::mutex> lock(init.core->mutex);
    init.core->registration_open = false;
  }
  refused = init.answer(init.services.option_int(init.args.core, "count", &count));
  CHECK(refused.first == HX_FAILED_PRECONDITION);
  CHECK_THAT(refused.second, Contains("during hx_plugin_init only"));
  CHECK(init.answer(init.services.option_keys(init.args.core, nullptr, 0)).first ==
        HX_FAILED_PRECONDITION);
}

TEST_CASE("options that are not a JSON object are refused by every getter, saying why") {
  for (const char* text : {"", "  ", "{}"}) {
    const InitCore init(text);
    int64_t count = 0;
    CHECK(init.answer(init.services.option_int(init.args.core, "count", &count)).first ==
          HX_NOT_FOUND);
    CHECK(init.answer(init.services.option_keys(init.args.core, nullptr, 0)).first == HX_OK);
  }
  const InitCore list("[1, 2]");
  int64_t count = 0;
  auto refused = list.answer(list.services.option_int(list.args.core, "count", &count));
  CHECK(refused.first == HX_INVALID_ARGUMENT);
  CHECK_THAT(refused.second, Equals("reader plugin options: expected a JSON object like "
                                    "{\"name\": value}, got array [1,2]"));
  const InitCore broken(R"({"unclosed": )");
  refused = broken.answer(broken.services.option_keys(broken.args.core, nullptr, 0));
  CHECK(refused.first == HX_INVALID_ARGUMENT);
  CHECK_THAT(refused.second, Contains("reader plugin options: not valid JSON: "));
}
