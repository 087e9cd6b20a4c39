// The lifecycle section: init, use, shutdown, init again in the same load, unload and load
// again. The core does all of these (a runtime that ends and a new one in the same process;
// a plugin skipped after init and loaded by a later runtime), and a plugin that keeps state
// in globals breaks here first.
#include <string>

#include "sections/sections.hpp"

namespace hxrt_conformance {
namespace {

// What one life of the plugin saw, to compare with the next.
struct Life {
  bool initialised = false;
  std::string init_error;
  size_t devices = 0;
  size_t kernels = 0;
  std::string use_error;  // empty when an allocation and a copy on device 0 worked
};

// Inits, allocates and round-trips a few bytes on device 0, frees, shuts down.
Life live_once(const PluginLibrary& library, const Target& target) {
  Life life;
  PluginSession session(library, target.options);
  life.initialised = session.initialised();
  if (!life.initialised) {
    life.init_error = describe(session.init_outcome());
    return life;
  }
  if (!session.table_problem().empty()) {
    life.use_error = session.table_problem();
    return life;
  }
  life.devices = session.devices().size();
  life.kernels = session.core().kernels().size();
  if (session.devices().empty()) return life;
  const hx_plugin_api& api = session.api();
  hx_device* device = session.devices().front();
  hx_buffer* memory = nullptr;
  const Outcome allocated = KitCore::take(api.allocate(device, 64, 64, &memory));
  if (!allocated.ok()) {
    life.use_error = "allocate(64, 64) returned " + describe(allocated);
    return life;
  }
  const char sent[8] = {'l', 'i', 'f', 'e', 'c', 'y', 'c', 'l'};
  char back[8] = {};
  Outcome copied = KitCore::take(api.copy_host_to_device(device, nullptr, memory, 0, sent, 8));
  if (copied.ok()) {
    copied = KitCore::take(api.copy_device_to_host(device, nullptr, back, memory, 0, 8));
  }
  api.deallocate(device, memory, 64);
  if (!copied.ok()) {
    life.use_error = "a copy returned " + describe(copied);
  } else if (std::string(back, 8) != std::string(sent, 8)) {
    life.use_error = "8 bytes copied to device 0 and back came back different";
  }
  return life;
}

std::string counts(const Life& life) {
  return std::to_string(life.devices) + " device(s), " + std::to_string(life.kernels) +
         " kernel(s)";
}

// `later` must look like `first`: same devices, same kernels, usable.
void expect_same(const Life& first, const Life& later, const std::string& check,
                 const std::string& what_to_fix, SectionLog& log) {
  if (!later.initialised) {
    log.fail(check, "init failed: " + later.init_error + "; " + what_to_fix);
  } else if (later.devices != first.devices || later.kernels != first.kernels) {
    log.fail(check, "the first init gave " + counts(first) + ", this one " + counts(later) +
                        "; " + what_to_fix);
  } else if (!later.use_error.empty()) {
    log.fail(check, later.use_error + "; " + what_to_fix);
  } else {
    log.pass(check, counts(later));
  }
}

}  // namespace

void check_lifecycle(const Target& target, SectionLog& log) {
  Life first;
  {
    PluginLibrary library(target.path);
    if (library.init() == nullptr) {
      log.skip("lifecycle", "the plugin cannot be loaded (" + library.error() +
                                "); see the abi section");
      return;
    }
    first = live_once(library, target);
    if (!first.initialised) {
      log.skip("lifecycle", "hx_plugin_init failed (" + first.init_error +
                                "); see the abi section");
      return;
    }
    if (!first.use_error.empty()) {
      log.fail("init, allocate and copy on device 0, shutdown", first.use_error);
      return;
    }
    log.pass("init, allocate and copy on device 0, shutdown",
             first.devices == 0 ? "no devices: init and shutdown only" : counts(first));
    expect_same(first, live_once(library, target), "init again after shutdown, same load",
                "shutdown must leave the plugin ready for another init (reset global state, "
                "release and re-create what init made)",
                log);
  }
  // The library is closed (unloaded, unless something pins it) and opened again.
  PluginLibrary reloaded(target.path);
  if (reloaded.init() == nullptr) {
    log.fail("load again after unload", reloaded.error());
    return;
  }
  expect_same(first, live_once(reloaded, target), "init after unload and load",
              "a plugin must work after dlclose and dlopen; do not rely on state that "
              "outlives the library",
              log);
}

}  // namespace hxrt_conformance
