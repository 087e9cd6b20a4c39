// The dynamic symbols libhxrt.so defines, as nm -D lists them. Each is a name a program can
// link against, and come to depend on, and that the dynamic linker resolves at every start:
// only the public API may be one (core/include/hxrt/export.hpp, cmake/libhxrt.map).
#include <catch2/catch.hpp>
#include <cxxabi.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <typeinfo>
#include <vector>

#include "hxrt/dtype.hpp"
#include "hxrt/error.hpp"
#include "run_program.hpp"

namespace {

// The scopes and name of the entity a mangled C++ name denotes, read from its start (the
// Itanium C++ ABI's nested names): _ZNK4hxrt6Tensor5dtypeEv -> {hxrt, Tensor, dtype}. The
// typeinfo (_ZTI), typeinfo name (_ZTS) and vtable (_ZTV) of a class give that class's. A
// constructor, destructor, operator or template argument list ends the list. Empty for a name
// that is not C++ (a C function).
std::vector<std::string> entity_of(const std::string& mangled) {
  if (mangled.rfind("_Z", 0) != 0) return {};
  size_t at = 2;
  for (const char* special : {"TI", "TS", "TV"}) {
    if (mangled.compare(at, 2, special) == 0) at += 2;
  }
  if (at < mangled.size() && mangled[at] == 'N') {
    ++at;
    while (at < mangled.size() && std::string("rVKRO").find(mangled[at]) != std::string::npos) {
      ++at;  // the qualifiers of a member function: const, volatile, & or &&
    }
  }
  std::vector<std::string> parts;
  while (at < mangled.size() && std::isdigit(static_cast<unsigned char>(mangled[at]))) {
    size_t length = 0;
    while (at < mangled.size() && std::isdigit(static_cast<unsigned char>(mangled[at]))) {
      length = length * 10 + static_cast<size_t>(mangled[at++] - '0');
    }
    if (length > mangled.size() - at) return {};
    parts.push_back(mangled.substr(at, length));
    at += length;
  }
  return parts;
}

// The public API is namespace hxrt, but for hxrt::detail and the implementation behind a
// public class (Runtime::Impl), which its headers name without making them API.
bool in_public_api(const std::string& mangled) {
  const std::vector<std::string> entity = entity_of(mangled);
  if (entity.empty() || entity[0] != "hxrt") return false;
  if (entity.size() > 1 && entity[1] == "detail") return false;
  return std::find(entity.begin() + 1, entity.end(), "Impl") == entity.end();
}

std::string demangled(const std::string& mangled) {
  int status = 0;
  const std::unique_ptr<char, decltype(&std::free)> text(
      abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status), &std::free);
  return status == 0 ? std::string(text.get()) : mangled;
}

// The dynamic symbols the library defines: "<value> <type> <name>" lines of nm -D.
std::vector<std::string> exported_symbols() {
  const hxrt_test::ProgramResult nm =
      hxrt_test::run_program(hxrt_test::shell_quote(HXRT_TEST_NM) + " -D --defined-only " +
                             hxrt_test::shell_quote(HXRT_TEST_CORE_LIBRARY) + " 2>&1");
  INFO(nm.output);
  REQUIRE(nm.exit_code == 0);
  std::vector<std::string> symbols;
  std::istringstream lines(nm.output);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    std::string value, type, name;
    if (fields >> value >> type >> name) symbols.push_back(name.substr(0, name.find('@')));
  }
  return symbols;
}

}  // namespace

TEST_CASE("a symbol is public API when it is of namespace hxrt, outside its implementation") {
  CHECK(in_public_api("_ZNK4hxrt6Tensor5dtypeEv"));  // hxrt::Tensor::dtype() const
  CHECK(in_public_api("_ZN4hxrt9printableB5cxx11ESt17basic_string_viewIcSt11char_traitsIcEE"));
  CHECK(in_public_api("_ZN4hxrt7RuntimeD1Ev"));       // hxrt::Runtime::~Runtime()
  CHECK(in_public_api("_ZTIN4hxrt5ErrorE"));          // typeinfo for hxrt::Error
  CHECK(in_public_api("_ZN4hxrteqERKNS_5ShapeES2_"));  // hxrt::operator==(Shape, Shape)
  // hxrt::Runtime::Runtime(std::unique_ptr<hxrt::Runtime::Impl>): Impl is only an argument
  CHECK(in_public_api("_ZN4hxrt7RuntimeC2ESt10unique_ptrINS0_4ImplESt14default_deleteIS2_EE"));
  CHECK_FALSE(in_public_api("_ZN4hxrt6detail12BfcAllocator8allocateEm"));
  CHECK_FALSE(in_public_api("_ZNK4hxrt6detail6Device4nameB5cxx11Ev"));
  CHECK_FALSE(in_public_api("_ZN4hxrt7Runtime4Impl10initializeEv"));
  CHECK_FALSE(in_public_api("_ZTIN4hxrt6detail10TensorImplE"));
  CHECK_FALSE(in_public_api("_ZN4hxrt6detaileqERKNS0_6BufferES3_"));  // an operator of detail
  CHECK_FALSE(in_public_api("_ZNSt6vectorIcSaIcEE12emplace_backIJcEEERcDpOT_"));  // std::
  CHECK_FALSE(in_public_api("_ZN8nlohmann6detail10type_errorD0Ev"));
  CHECK_FALSE(in_public_api("hx_plugin_init"));
  CHECK_FALSE(in_public_api("_Z4mainv"));
}

TEST_CASE("libhxrt.so exports its public API and nothing else") {
  const std::vector<std::string> symbols = exported_symbols();
  // An API is there: an empty list would mean that nm or its reading broke, not a clean library.
  REQUIRE(std::count(symbols.begin(), symbols.end(),
                     "_ZN4hxrt7Runtime6createERKNS_14RuntimeOptionsE") == 1);
  for (const std::string& symbol : symbols) {
    INFO(demangled(symbol) << " (" << symbol << ") is exported but is not public API: give "
                              "HXRT_API (hxrt/export.hpp) only to what core/include/hxrt/ "
                              "declares for programs to use");
    CHECK(in_public_api(symbol));
  }
}

TEST_CASE("a program catches what libhxrt.so throws as the one hxrt::Error type") {
  // The library exports Error's typeinfo and vtable, so that the program and the library
  // use one typeinfo: a catch, typeid or dynamic_cast that compares typeinfo by address (as
  // some C++ runtimes do) matches.
  const std::vector<std::string> symbols = exported_symbols();
  const std::set<std::string> exported(symbols.begin(), symbols.end());
  for (const char* symbol : {"_ZTIN4hxrt5ErrorE", "_ZTSN4hxrt5ErrorE", "_ZTVN4hxrt5ErrorE"}) {
    INFO(demangled(symbol));
    CHECK(exported.count(symbol) == 1);
  }
  try {
    hxrt::parse_dtype("float31");
    FAIL("parse_dtype took \"float31\"");
  } catch (const hxrt::Error& error) {
    CHECK(error.code() == hxrt::StatusCode::kInvalidArgument);
    CHECK(&typeid(error) == &typeid(hxrt::Error));
  }
}
