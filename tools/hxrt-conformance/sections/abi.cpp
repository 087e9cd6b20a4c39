// The abi section: what the core checks when it loads a plugin, each check with the fix, and
// then whether the real core (libhxrt) accepts it.
#include <hxrt/hxrt.hpp>

#include <cstdlib>
#include <regex>
#include <string>
#include <vector>

#include "sections/sections.hpp"

namespace hxrt_conformance {
namespace {

std::string text_or_null(const char* text) { return text ? "'" + std::string(text) + "'" : "NULL"; }

void check_identity(const hx_plugin_api& api, SectionLog& log) {
  static const std::regex kName("[a-z][a-z0-9_]*");
  static const std::regex kDeviceType("[A-Z][A-Z0-9_]*");
  log.expect(api.name != nullptr && std::regex_match(api.name, kName),
             "name matches [a-z][a-z0-9_]*",
             "hx_plugin_api.name is " + text_or_null(api.name) +
                 "; give a short lower-case name such as \"cpu\"");
  log.expect(api.version != nullptr && api.version[0] != '\0', "version is set",
             "hx_plugin_api.version is " + text_or_null(api.version) +
                 "; give the plugin's own version, such as \"1.0.0\"");
  log.expect(api.device_type != nullptr && std::regex_match(api.device_type, kDeviceType),
             "device_type matches [A-Z][A-Z0-9_]*",
             "hx_plugin_api.device_type is " + text_or_null(api.device_type) +
                 "; use \"CPU\", \"GPU\" or an upper-case type of the plugin's own");
}

void check_versions(const hx_plugin_api& api, SectionLog& log) {
  log.expect(api.abi_major == HX_ABI_VERSION_MAJOR,
             "table speaks ABI major " + std::to_string(HX_ABI_VERSION_MAJOR),
             "abi_major is " + std::to_string(api.abi_major) + "; set it to HX_ABI_VERSION_MAJOR (" +
                 std::to_string(HX_ABI_VERSION_MAJOR) + ") and build against this header");
  log.expect(api.struct_size >= HX_PLUGIN_API_STRUCT_SIZE,
             "table struct_size covers ABI 1.0",
             "struct_size is " + std::to_string(api.struct_size) + ", the ABI " +
                 std::to_string(HX_ABI_VERSION_MAJOR) + ".0 table is " +
                 std::to_string(HX_PLUGIN_API_STRUCT_SIZE) +
                 " bytes; set struct_size = HX_PLUGIN_API_STRUCT_SIZE");
  log.expect(api.extension == nullptr, "table extension is NULL",
             "hx_plugin_api.extension is not NULL; ABI 1.0 defines no extension, set it to NULL");
}

// The names of `functions` that are NULL.
std::string missing(const std::vector<std::pair<const char*, bool>>& functions) {
  std::string names;
  for (const auto& [name, present] : functions) {
    if (!present) names += (names.empty() ? "" : ", ") + std::string(name);
  }
  return names;
}

// An optional group: all its functions or none.
void check_group(const char* group, const std::vector<std::pair<const char*, bool>>& functions,
                 SectionLog& log) {
  const std::string absent = missing(functions);
  const bool none = absent.size() > 0 && [&] {
    for (const auto& function : functions) {
      if (function.second) return false;
    }
    return true;
  }();
  if (none) {
    log.pass(std::string(group) + ": all or none", "none: the plugin does not offer them");
    return;
  }
  log.expect(absent.empty(), std::string(group) + ": all or none",
             "only some are set; NULL: " + absent +
                 ". Set all of them, or none (the core then treats the feature as absent)");
}

void check_functions(const hx_plugin_api& api, SectionLog& log) {
  const std::string absent = missing({{"shutdown", api.shutdown != nullptr},
                                      {"device_count", api.device_count != nullptr},
                                      {"device_get", api.device_get != nullptr},
                                      {"device_properties", api.device_properties != nullptr},
                                      {"memory_info", api.memory_info != nullptr},
                                      {"allocate", api.allocate != nullptr},
                                      {"deallocate", api.deallocate != nullptr},
                                      {"memset", api.memset != nullptr},
                                      {"copy_host_to_device", api.copy_host_to_device != nullptr},
                                      {"copy_device_to_host", api.copy_device_to_host != nullptr},
                                      {"copy_device_to_device",
                                       api.copy_device_to_device != nullptr}});
  log.expect(absent.empty(), "required functions are set",
             "NULL in the table: " + absent + "; the core skips a plugin without them");
  check_group("streams", {{"stream_create", api.stream_create != nullptr},
                          {"stream_destroy", api.stream_destroy != nullptr},
                          {"stream_synchronize", api.stream_synchronize != nullptr},
                          {"stream_query", api.stream_query != nullptr},
                          {"stream_wait_event", api.stream_wait_event != nullptr}},
              log);
  check_group("events", {{"event_create", api.event_create != nullptr},
                         {"event_destroy", api.event_destroy != nullptr},
                         {"event_record", api.event_record != nullptr},
                         {"event_synchronize", api.event_synchronize != nullptr},
                         {"event_query", api.event_query != nullptr}},
              log);
  check_group("pinned host memory", {{"host_allocate", api.host_allocate != nullptr},
                                     {"host_deallocate", api.host_deallocate != nullptr}},
              log);
}

void check_registrations(const KitCore& core, SectionLog& log) {
  std::string errors;
  for (const std::string& error : core.registration_errors()) errors += "\n" + error;
  log.expect(errors.empty(), "every registration is valid",
             "the core refused these registrations (the plugin's init went on regardless):" +
                 errors);
  log.pass("registers kernels", std::to_string(core.kernels().size()) + " kernel(s), " +
                                    std::to_string(core.ops().size()) + " custom op(s)");
}

// Init as cores of other versions would, then shut down.
void check_negotiation(const PluginLibrary& library, const Target& target, SectionLog& log) {
  {
    // A newer core of the same major: a larger services table and a higher minor.
    const CoreVersion newer{HX_ABI_VERSION_MAJOR, HX_ABI_VERSION_MINOR + 1,
                            HX_CORE_SERVICES_STRUCT_SIZE + 4 * sizeof(void*)};
    PluginSession session(library, target.options, newer);
    log.expect(session.initialised(),
               "initialises under a newer core (ABI " + std::to_string(newer.major) + "." +
                   std::to_string(newer.minor) + ")",
               "init failed: " + describe(session.init_outcome()) +
                   ". A core of the same major with a higher minor and a larger services table "
                   "must be accepted; read only the fields the plugin knows");
  }
  {
    const CoreVersion other_major{HX_ABI_VERSION_MAJOR + 1, 0, HX_CORE_SERVICES_STRUCT_SIZE};
    PluginSession session(library, target.options, other_major);
    const Outcome& outcome = session.init_outcome();
    const std::string check =
        "answers a core of ABI major " + std::to_string(other_major.major);
    if (outcome.ok()) {
      log.pass(check, "accepted; the core then skips it for its table's major");
    } else if (outcome.code == HX_FAILED_PRECONDITION) {
      log.pass(check, "refused: " + outcome.message);
    } else {
      log.fail(check, "init returned " + describe(outcome) +
                          "; refuse a core of another major with FAILED_PRECONDITION naming "
                          "both versions (or accept and let the core decide)");
    }
  }
}

// The real core loads only this file, without the environment's plugins or config.
void check_core_accepts(const Target& target, const std::string& name, SectionLog& log) {
  unsetenv("HXRT_PLUGIN_PATH");
  unsetenv("HXRT_CONFIG");
  hxrt::RuntimeOptions options;
  options.plugin_paths = {target.path};
  options.use_installed_plugins = false;
  options.log_sink = [](hxrt::LogLevel, std::string_view) {};
  if (!name.empty()) options.plugin_options[name] = target.options;
  const std::string check = "loads in hxrt " HXRT_VERSION;
  try {
    const hxrt::Runtime runtime = hxrt::Runtime::create(options);
    for (const hxrt::PluginReport& report : runtime.load_report()) {
      if (report.loaded) {
        log.pass(check, report.name + " " + report.version + ", ABI " + report.abi_version +
                            ", " + std::to_string(report.device_count) + " " +
                            report.device_type + " device(s)" +
                            (report.note.empty() ? "" : " (" + report.note + ")"));
      } else {
        log.fail(check, "the core skipped it: " + report.reason);
      }
      return;
    }
    log.fail(check, "the core found no plugin at this path");
  } catch (const hxrt::Error& error) {
    log.fail(check, std::string("the core did not start: ") + error.what());
  }
}

}  // namespace

void check_abi(const Target& target, SectionLog& log) {
  std::string name;
  {
    PluginLibrary library(target.path);
    if (!log.expect(library.opened(), "dlopen", library.error() +
                                                    "; build a shared object for this machine "
                                                    "and link it against what it uses")) {
      return;
    }
    if (!log.expect(library.init() != nullptr, "exports " HX_PLUGIN_INIT_SYMBOL,
                    library.error())) {
      return;
    }
    PluginSession session(library, target.options);
    const bool initialised = session.initialised();
    if (initialised) {
      const hx_plugin_api& api = session.api();
      name = api.name ? api.name : "";
      log.pass("init", "plugin " + text_or_null(api.name) + " version " +
                           text_or_null(api.version) + ", ABI " + std::to_string(api.abi_major) +
                           "." + std::to_string(api.abi_minor) + ", device type " +
                           text_or_null(api.device_type) + ", options " + target.options);
      check_versions(api, log);
      check_identity(api, log);
      check_functions(api, log);
      check_registrations(session.core(), log);
    } else {
      log.fail("init", "hx_plugin_init returned " + describe(session.init_outcome()) +
                           " with options " + target.options +
                           (session.init_outcome().message.find("option") != std::string::npos
                                ? " (pass the options the plugin needs with --options)"
                                : ""));
    }
    session.shutdown();
    if (initialised) check_negotiation(library, target, log);
  }
  check_core_accepts(target, name, log);
}

}  // namespace hxrt_conformance
