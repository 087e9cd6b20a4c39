// The errors section: what a plugin gets wrong handed to it must come back as a status with a
// code and a message, never as a crash; and what the header says each destroy accepts (NULL)
// must be accepted.
#include <cstdint>
#include <string>

#include "device_under_test.hpp"
#include "sections/sections.hpp"

namespace hxrt_conformance {
namespace {

// A status for a bad argument: not OK, and a message to show the user.
void expect_error(const Outcome& outcome, const std::string& check, const std::string& call,
                  SectionLog& log) {
  if (outcome.ok()) {
    log.fail(check, call + " succeeded; return a status (INVALID_ARGUMENT or OUT_OF_RANGE)");
  } else if (outcome.message.empty()) {
    log.fail(check, call + " returned " + hx_status_code_name(outcome.code) +
                        " with an empty message; say what was wrong and what to do");
  } else {
    log.pass(check, describe(outcome));
  }
}

// Each init here is the only one alive: the plugin is initialised at most once at a time.
void check_options(const PluginLibrary& library, SectionLog& log) {
  struct BadOptions {
    const char* check;
    std::string options;
    const char* must_name;  // a word the message must contain, or nullptr
  };
  const BadOptions cases[] = {
      {"init refuses an unknown option", R"({"hxrt_conformance_no_such_option": 1})",
       "hxrt_conformance_no_such_option"},
      {"init refuses options that are not JSON", "{\"unterminated", nullptr},
      {"init refuses options that are not an object", "[1, 2]", nullptr},
  };
  for (const BadOptions& bad : cases) {
    PluginSession session(library, bad.options);
    const Outcome& outcome = session.init_outcome();
    if (outcome.ok()) {
      log.fail(bad.check, "init accepted " + bad.options +
                              "; return INVALID_ARGUMENT naming what is wrong, so that a typo "
                              "in a config is not silently ignored");
    } else if (outcome.code != HX_INVALID_ARGUMENT) {
      log.fail(bad.check, "init returned " + describe(outcome) + " for " + bad.options +
                              "; return INVALID_ARGUMENT");
    } else if (bad.must_name != nullptr && outcome.message.find(bad.must_name) == std::string::npos) {
      log.fail(bad.check, "the message \"" + outcome.message + "\" does not name the option '" +
                              bad.must_name + "'");
    } else {
      log.pass(bad.check, outcome.message);
    }
  }
}

void check_ordinals(const PluginSession& session, SectionLog& log) {
  const hx_plugin_api& api = session.api();
  const int32_t count = static_cast<int32_t>(session.devices().size());
  for (const int32_t ordinal : {int32_t{-1}, count, INT32_MAX}) {
    hx_device* device = nullptr;
    const std::string call = "device_get(" + std::to_string(ordinal) + ")";
    expect_error(KitCore::take(api.device_get(api.plugin, ordinal, &device)),
                 call + " with " + std::to_string(count) + " device(s) is an error", call, log);
  }
}

// Far beyond the device, the request is over max_allocation too: either refusal is right.
void check_out_of_memory(const PluginSession& session, SectionLog& log) {
  const hx_plugin_api& api = session.api();
  const DeviceUnderTest device = devices_under_test(session).front();
  const uint64_t total = device.memory_total;
  // Yet small enough that size arithmetic in the plugin cannot wrap.
  const size_t huge = total > 0 && total < (uint64_t{1} << 50) ? static_cast<size_t>(total) * 64
                                                                : size_t{1} << 58;
  hx_buffer* buffer = nullptr;
  const Outcome outcome =
      KitCore::take(api.allocate(device.device, huge, device.alignment, &buffer));
  const std::string check = "allocate far beyond the device's memory is refused";
  if (outcome.ok()) {
    api.deallocate(device.device, buffer, huge);
    log.fail(check, "allocate(" + std::to_string(huge) + " bytes) succeeded on a device of " +
                        std::to_string(total) + " bytes; return OUT_OF_MEMORY");
  } else if (outcome.code != HX_OUT_OF_MEMORY && outcome.code != HX_INVALID_ARGUMENT) {
    log.fail(check, "allocate(" + std::to_string(huge) + " bytes) returned " + describe(outcome) +
                        "; the core tells an out-of-memory from other failures by the code "
                        "OUT_OF_MEMORY (INVALID_ARGUMENT for a size over max_allocation)");
  } else {
    log.pass(check, describe(outcome));
  }
  // The plugin must still work after refusing.
  const Outcome after = KitCore::take(api.allocate(device.device, 256, device.alignment, &buffer));
  if (after.ok()) api.deallocate(device.device, buffer, 256);
  log.expect(after.ok(), "allocate works after an out-of-memory",
             "allocate(256) then returned " + describe(after));
}

void check_null_accepted(const PluginSession& session, SectionLog& log) {
  const hx_plugin_api& api = session.api();
  hx_device* device = session.devices().front();
  api.deallocate(device, nullptr, 0);
  std::string destroyed = "deallocate";
  if (session.has_host_memory()) {
    api.host_memory->deallocate(device, nullptr);
    destroyed += ", host_memory.deallocate";
  }
  if (session.has_streams()) {
    api.streams->destroy(device, nullptr);
    destroyed += ", streams.destroy";
  }
  if (session.has_events()) {
    api.events->destroy(device, nullptr);
    destroyed += ", events.destroy";
  }
  for (const RegisteredKernel& kernel : session.core().kernels()) {
    if (kernel.destroy == nullptr) continue;
    kernel.destroy(nullptr, kernel.user_data);
    destroyed += ", the destroy of " + kernel.op + "'s kernel";
  }
  log.pass("every destroy accepts NULL", destroyed);
  std::string failures;
  const auto note = [&](const char* call, const Outcome& outcome) {
    if (!outcome.ok()) failures += std::string(call) + " returned " + describe(outcome) + "; ";
  };
  note("memset(size 0)", KitCore::take(api.memset(device, nullptr, nullptr, 0, 0, 0)));
  note("copy_host_to_device(size 0)",
       KitCore::take(api.copy_host_to_device(device, nullptr, nullptr, 0, nullptr, 0)));
  note("copy_device_to_host(size 0)",
       KitCore::take(api.copy_device_to_host(device, nullptr, nullptr, nullptr, 0, 0)));
  note("copy_device_to_device(size 0)",
       KitCore::take(api.copy_device_to_device(device, nullptr, nullptr, 0, device, nullptr, 0, 0)));
  log.expect(failures.empty(), "transfers of 0 bytes are no-ops",
             failures + "the header makes size 0 a no-op, whatever the buffers");
}

void check_unrecorded_event(const PluginSession& session, SectionLog& log) {
  const std::string check = "an event never recorded is complete";
  if (!session.has_events()) {
    log.skip(check, "the plugin has no events");
    return;
  }
  const hx_plugin_api& api = session.api();
  hx_device* device = session.devices().front();
  hx_event* event = nullptr;
  const Outcome created = KitCore::take(api.events->create(device, &event));
  if (!created.ok()) {
    log.fail(check, "events.create returned " + describe(created));
    return;
  }
  bool done = false;
  const Outcome queried = KitCore::take(api.events->query(device, event, &done));
  const Outcome waited = KitCore::take(api.events->synchronize(device, event));
  api.events->destroy(device, event);
  log.expect(queried.ok() && done && waited.ok(), check,
             "events.query gave " + describe(queried) + (done ? " done" : " not done") +
                 ", events.synchronize " + describe(waited) +
                 "; the header says both return at once, done, for an event never recorded");
}

}  // namespace

void check_errors(const Target& target, SectionLog& log) {
  PluginLibrary library(target.path);
  if (library.init() == nullptr) {
    log.skip("section errors", "the plugin cannot be loaded (" + library.error() +
                                   "); see the abi section");
    return;
  }
  check_options(library, log);
  PluginSession session(library, target.options);
  if (!session.initialised() || !session.table_problem().empty()) {
    log.skip("section errors",
             (session.initialised() ? session.table_problem()
                                    : "hx_plugin_init failed (" +
                                          describe(session.init_outcome()) + ")") +
                 "; see the abi section");
    return;
  }
  check_ordinals(session, log);
  if (!require_devices(session, log, "errors on a device")) return;
  check_out_of_memory(session, log);
  check_null_accepted(session, log);
  check_unrecorded_event(session, log);
}

}  // namespace hxrt_conformance
