// The rules for what a plugin says about itself, and the escaping of whatever text the core
// keeps from a plugin.
#include <catch2/catch.hpp>

#include <string>

#include "hxrt/error.hpp"
#include "base/logger.hpp"
#include "base/plugin_identity.hpp"
#include "plugins/plugin_text.hpp"

using hxrt::detail::check_device_type;
using hxrt::detail::check_plugin_name;
using hxrt::detail::check_plugin_version;
using hxrt::detail::plugin_text;
using hxrt::printable;
using hxrt::detail::read_bounded;

TEST_CASE("printable escapes control characters and broken UTF-8, and keeps the rest") {
  CHECK(printable("GeForce RTX 4090 (rev a1)") == "GeForce RTX 4090 (rev a1)");
  CHECK(printable("Intel\xc2\xae Xeon\xc2\xae, caf\xc3\xa9, \xe2\x9c\x93, \xf0\x9f\x98\x80") ==
        "Intel\xc2\xae Xeon\xc2\xae, caf\xc3\xa9, \xe2\x9c\x93, \xf0\x9f\x98\x80");
  CHECK(printable("\x1b[31mred\x1b[0m") == "\\x1b[31mred\\x1b[0m");
  CHECK(printable("a\nb\tc\rd\x7f") == "a\\x0ab\\x09c\\x0dd\\x7f");
  CHECK(printable(std::string("nul\0byte", 8)) == "nul\\x00byte");
  // U+009B, CSI as one C1 character.
  CHECK(printable("\xc2\x9b" "2J") == "\\xc2\\x9b2J");
  // A stray continuation byte, a lone 0xff, an overlong '/', a cut sequence, a surrogate.
  CHECK(printable("\x80") == "\\x80");
  CHECK(printable("\xff") == "\\xff");
  CHECK(printable("\xc0\xaf") == "\\xc0\\xaf");
  CHECK(printable("\xe2\x9c") == "\\xe2\\x9c");
  CHECK(printable("\xed\xa0\x80") == "\\xed\\xa0\\x80");
}

TEST_CASE("plugin text is read no further than its bound") {
  CHECK(read_bounded(nullptr, 8).empty());
  CHECK(read_bounded("abcdef", 3) == "abc");
  CHECK(read_bounded("ab", 3) == "ab");
  CHECK(plugin_text("abcdef", 3) == "abc...");
  CHECK(plugin_text("abc", 3) == "abc");
  CHECK(plugin_text("\x1b", 3) == "\\x1b");
  CHECK(plugin_text(nullptr, 3).empty());
}

namespace {

// The message of the Error `check` throws for `text`, or "" when it accepts it.
template <class Check>
std::string refusal(Check check, const std::string& text) {
  try {
    check(text);
  } catch (const hxrt::Error& error) {
    CHECK(error.code() == hxrt::StatusCode::kInvalidArgument);
    return error.what();
  }
  return {};
}

}  // namespace

TEST_CASE("a plugin name is [a-z][a-z0-9_]* of at most 64 characters") {
  const auto name = [](const std::string& text) { return refusal(check_plugin_name, text); };
  CHECK(name("cpu").empty());
  CHECK(name("fixture_no_devices2").empty());
  CHECK(name(std::string(64, 'a')).empty());
  CHECK(name(std::string(65, 'a')) ==
        "plugin name '" + std::string(65, 'a') +
            "' must be [a-z][a-z0-9_]* of at most 64 characters (hx_plugin_api.name in "
            "plugin_api.h)");
  for (const std::string bad : {"", "Cpu", "2cpu", "_cpu", "my-plugin", "a/b", "a b"}) {
    INFO("'" << bad << "'");
    CHECK_FALSE(name(bad).empty());
  }
  CHECK(name("x\x1b[2J") == "plugin name 'x\\x1b[2J' must be [a-z][a-z0-9_]* of at most 64 "
                            "characters (hx_plugin_api.name in plugin_api.h)");
}

TEST_CASE("a plugin version is printable ASCII of 1 to 64 characters") {
  const auto version = [](const std::string& text) {
    return refusal(check_plugin_version, text);
  };
  CHECK(version("1.2.0").empty());
  CHECK(version("2024.1 (build 7, git abc123)").empty());
  CHECK(version(std::string(64, '1')).empty());
  CHECK(version("") == "plugin version '' must be printable ASCII of 1 to 64 characters "
                       "(hx_plugin_api.version in plugin_api.h)");
  CHECK_FALSE(version(std::string(65, '1')).empty());
  CHECK(version("1.0\n") == "plugin version '1.0\\x0a' must be printable ASCII of 1 to 64 "
                            "characters (hx_plugin_api.version in plugin_api.h)");
  CHECK_FALSE(version("1.0\xc3\xa9").empty());
}

TEST_CASE("a device type is [A-Z][A-Z0-9_]* of at most 32 characters") {
  const auto type = [](const std::string& text) {
    return refusal([](const std::string& t) { check_device_type(t, "device type"); }, text);
  };
  CHECK(type("GPU").empty());
  CHECK(type("MY_NPU2").empty());
  CHECK(type(std::string(32, 'X')).empty());
  CHECK(type(std::string(33, 'X')) ==
        "device type '" + std::string(33, 'X') +
            "' must be [A-Z][A-Z0-9_]* of at most 32 characters (hx_plugin_api.device_type in "
            "plugin_api.h)");
  for (const std::string bad : {"", "gpu", "2GPU", "GPU-1", "GPU:0"}) {
    INFO("'" << bad << "'");
    CHECK_FALSE(type(bad).empty());
  }
}
