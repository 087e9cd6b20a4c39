// The name grammars of plugin_vocabulary.h: one copy that the core, the support library and the
// conformance kit all check names with, so what one accepts the others accept.
#include <catch2/catch.hpp>

#include <string>

#include "hxrt/plugin_vocabulary.h"

namespace {

std::string repeated(char c, size_t count) { return std::string(count, c); }

}  // namespace

TEST_CASE("plugin names are [a-z][a-z0-9_]* of at most 64 characters") {
  CHECK(hx_is_plugin_name("cpu"));
  CHECK(hx_is_plugin_name("my_npu2"));
  CHECK(hx_is_plugin_name(repeated('a', HX_MAX_PLUGIN_NAME_LENGTH).c_str()));
  CHECK_FALSE(hx_is_plugin_name(repeated('a', HX_MAX_PLUGIN_NAME_LENGTH + 1).c_str()));
  CHECK_FALSE(hx_is_plugin_name(nullptr));
  CHECK_FALSE(hx_is_plugin_name(""));
  CHECK_FALSE(hx_is_plugin_name("2npu"));
  CHECK_FALSE(hx_is_plugin_name("_npu"));
  CHECK_FALSE(hx_is_plugin_name("Cpu"));
  CHECK_FALSE(hx_is_plugin_name("libhx_sim.so"));
}

TEST_CASE("device types are [A-Z][A-Z0-9_]* of at most 32 characters") {
  CHECK(hx_is_device_type("GPU"));
  CHECK(hx_is_device_type("NPU_2"));
  CHECK(hx_is_device_type(repeated('X', HX_MAX_DEVICE_TYPE_LENGTH).c_str()));
  CHECK_FALSE(hx_is_device_type(repeated('X', HX_MAX_DEVICE_TYPE_LENGTH + 1).c_str()));
  CHECK_FALSE(hx_is_device_type(nullptr));
  CHECK_FALSE(hx_is_device_type(""));
  CHECK_FALSE(hx_is_device_type("Gpu"));
  CHECK_FALSE(hx_is_device_type("9PU"));
}

TEST_CASE("op names are [A-Z][A-Za-z0-9_]* of at most 64 characters") {
  CHECK(hx_is_op_name("MatMul"));
  CHECK(hx_is_op_name("My_Op2"));
  CHECK(hx_is_op_name(repeated('A', HX_MAX_OP_NAME_LENGTH).c_str()));
  CHECK_FALSE(hx_is_op_name(repeated('A', HX_MAX_OP_NAME_LENGTH + 1).c_str()));
  CHECK_FALSE(hx_is_op_name(nullptr));
  CHECK_FALSE(hx_is_op_name("matMul"));
  CHECK_FALSE(hx_is_op_name("Mat-Mul"));
  CHECK_FALSE(hx_is_op_name("Bad\x1b[2J"));
}

TEST_CASE("plugin versions are 1 to 64 printable ASCII characters") {
  CHECK(hx_is_plugin_version("1.0.0"));
  CHECK(hx_is_plugin_version("2.4 (beta)"));
  CHECK(hx_is_plugin_version(repeated('1', HX_MAX_PLUGIN_VERSION_LENGTH).c_str()));
  CHECK_FALSE(hx_is_plugin_version(repeated('1', HX_MAX_PLUGIN_VERSION_LENGTH + 1).c_str()));
  CHECK_FALSE(hx_is_plugin_version(nullptr));
  CHECK_FALSE(hx_is_plugin_version(""));
  CHECK_FALSE(hx_is_plugin_version("1.0\n"));
  CHECK_FALSE(hx_is_plugin_version("1.0\x7f"));
}

TEST_CASE("a grammar reads no further than its limit and one byte more") {
  // Not NUL-terminated within reach: a check must stop at the limit, not run off the buffer.
  const std::string unterminated = repeated('a', HX_MAX_PLUGIN_NAME_LENGTH + 1);
  char bounded[HX_MAX_PLUGIN_NAME_LENGTH + 1];
  unterminated.copy(bounded, sizeof bounded);
  CHECK_FALSE(hx_is_plugin_name(bounded));
}
