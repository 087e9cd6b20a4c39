// The abi section: what the core checks when it loads a plugin, each check with the fix, and
// then whether the real core (libhxrt) accepts it.
#include <hxrt/hxrt.hpp>

#include <cstdlib>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sections/sections.hpp"

namespace hxrt_conformance {
namespace {

std::string text_or_null(const char* text) { return text ? "'" + std::string(text) + "'" : "NULL"; }

void check_identity(const hx_plugin_api& api, SectionLog& log) {
  log.expect(hx_is_plugin_name(api.name),
             "name matches [a-z][a-z0-9_]* in at most " +
                 std::to_string(HX_MAX_PLUGIN_NAME_LENGTH) + " characters",
             "hx_plugin_api.name is " + text_or_null(api.name) +
                 "; give a short lower-case name such as \"cpu\"");
  log.expect(hx_is_plugin_version(api.version),
             "version is 1 to " + std::to_string(HX_MAX_PLUGIN_VERSION_LENGTH) +
                 " printable ASCII characters",
             "hx_plugin_api.version is " + text_or_null(api.version) +
                 "; give the plugin's own version, such as \"1.0.0\"");
  log.expect(hx_is_device_type(api.device_type),
             "device_type matches [A-Z][A-Z0-9_]* in at most " +
                 std::to_string(HX_MAX_DEVICE_TYPE_LENGTH) + " characters",
             "hx_plugin_api.device_type is " + text_or_null(api.device_type) +
                 "; use \"CPU\", \"GPU\" or an upper-case type of the plugin's own");
}

// Whether the table's fields of this version may be read at all; the checks after it read them.
bool check_versions(const hx_plugin_api& api, SectionLog& log) {
  const std::string ours =
      std::to_string(HX_ABI_VERSION_MAJOR) + "." + std::to_string(HX_ABI_VERSION_MINOR);
  if (!log.expect(api.abi_major == HX_ABI_VERSION_MAJOR,
                  "table speaks ABI major " + std::to_string(HX_ABI_VERSION_MAJOR),
                  "the plugin was built for ABI " + std::to_string(api.abi_major) + "." +
                      std::to_string(api.abi_minor) + " and this kit checks ABI " + ours +
                      "; rebuild it against the " + std::to_string(HX_ABI_VERSION_MAJOR) +
                      ".x headers (plugin_api.h's CHANGELOG lists what changed)")) {
    return false;
  }
  if (!log.expect(api.struct_size >= HX_PLUGIN_API_REQUIRED_SIZE,
                  "table struct_size covers ABI " + std::to_string(HX_ABI_VERSION_MAJOR) + ".0",
                  "struct_size is " + std::to_string(api.struct_size) + ", the ABI " +
                      std::to_string(HX_ABI_VERSION_MAJOR) + ".0 table is " +
                      std::to_string(HX_PLUGIN_API_REQUIRED_SIZE) +
                      " bytes; set struct_size = HX_PLUGIN_API_STRUCT_SIZE")) {
    return false;
  }
  log.expect(api.extensions == nullptr, "table extensions are NULL",
             "hx_plugin_api.extensions is not NULL; ABI " + ours +
                 " defines no extension types, set it to NULL");
  return true;
}

// One optional group: absent (a skip: the feature is unsupported) or whole: its struct_size
// covers its required functions (`needed`); optional functions appended later may lie beyond.
void check_group(const char* group, const void* table, size_t struct_size, size_t needed,
                 SectionLog& log) {
  const std::string name = std::string(group) + " group";
  if (table == nullptr) {
    log.skip(name, std::string("absent (NULL): the plugin does not offer ") + group);
    return;
  }
  log.expect(struct_size >= needed, name + ": struct_size covers its functions",
             "hx_plugin_api." + std::string(group) + "->struct_size is " +
                 std::to_string(struct_size) + ", its required functions end at " +
                 std::to_string(needed) + "; set it to the HX_..._API_STRUCT_SIZE macro");
}

void check_functions(const hx_plugin_api& api, SectionLog& log) {
  check_group("streams", api.streams, api.streams ? api.streams->struct_size : 0,
              HX_STREAM_API_REQUIRED_SIZE, log);
  check_group("events", api.events, api.events ? api.events->struct_size : 0,
              HX_EVENT_API_REQUIRED_SIZE, log);
  check_group("host_memory", api.host_memory,
              api.host_memory ? api.host_memory->struct_size : 0,
              HX_HOST_MEMORY_API_REQUIRED_SIZE, log);
  const hx_recording_api* recording = hx_plugin_api_recording(&api);
  check_group("recording", recording, recording ? recording->struct_size : 0,
              HX_RECORDING_API_REQUIRED_SIZE, log);
  if (hx_plugin_api_short_group(&api) != nullptr) return;
  const char* missing = hx_plugin_api_missing_function(&api);
  log.expect(missing == nullptr, "required functions are set",
             std::string(missing ? missing : "") +
                 " is NULL; the core skips a plugin without it. Set every function of the main "
                 "table, and of each group the plugin offers (or leave the group NULL)");
  if ((api.streams == nullptr) != (api.events == nullptr)) {
    log.skip("streams and events come together",
             std::string("the plugin offers ") + (api.streams ? "streams" : "events") +
                 " without " + (api.streams ? "events" : "streams") +
                 "; the core orders streams only with events, so it runs this plugin "
                 "synchronously. Offer both groups, or neither");
  }
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

// Init as a core of ABI 2.0 would: its init arguments end before intra_op_threads (2.1) and
// its services table before the option getters (2.5). A plugin that reads its options only
// through the getters may refuse options there; it must then initialise without them.
void check_older_core(const PluginLibrary& library, const Target& target, SectionLog& log) {
  const CoreVersion older{HX_ABI_VERSION_MAJOR, 0,
                          HX_STRUCT_SIZE(hx_core_services, attr_string),
                          HX_STRUCT_SIZE(hx_plugin_init_args, options_json_length)};
  const std::string check = "initialises under an older core (ABI " +
                            std::to_string(older.major) + "." + std::to_string(older.minor) + ")";
  const std::string advice =
      ". A core of the same major with a lower minor must be accepted: the two sides use the "
      "lower minor. Read a field of hx_plugin_init_args or hx_core_services only when its "
      "struct_size covers it, and take an absent one as its default";
  PluginSession session(library, target.options, older);
  if (session.initialised()) {
    log.pass(check);
    return;
  }
  const Outcome with_options = session.init_outcome();
  const nlohmann::json given = nlohmann::json::parse(target.options, nullptr, false);
  if (!given.is_object() || given.empty()) {
    log.fail(check, "init failed: " + describe(with_options) + advice);
    return;
  }
  PluginSession without_options(library, "{}", older);
  if (!without_options.initialised()) {
    log.fail(check, "init failed, with the options and without them: " +
                        describe(without_options.init_outcome()) + advice);
    return;
  }
  log.pass(check, "without options; with them it refused: " + describe(with_options));
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
  check_older_core(library, target, log);
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
      if (check_versions(api, log)) {
        check_identity(api, log);
        check_functions(api, log);
      }
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
