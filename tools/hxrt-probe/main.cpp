// hxrt-probe: loads one plugin as the core's loader does, so that the core learns at the cost
// of this process, not its own, whether the plugin takes down the process that loads it.
// Started by the core (core/src/plugins/probe_process.cpp) as
//   hxrt-probe <plugin file> <options JSON> <intra-op threads>
// it reports each step on file descriptor 3 (core/src/plugins/probe_protocol.hpp). It uses
// the core's own pieces (core services, Plugin, PhysicalDevice), so that the plugin sees the
// same calls, with the same arguments, as when it is loaded for real.
#include <dlfcn.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <csignal>
#include <cstdint>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "devices/physical_device.hpp"
#include "hxrt/plugin_vocabulary.h"
#include "ops/op_schema.hpp"
#include "plugins/core_handle.hpp"
#include "plugins/init_args.hpp"
#include "plugins/plugin.hpp"
#include "plugins/plugin_limits.hpp"
#include "plugins/plugin_loader.hpp"
#include "plugins/probe_protocol.hpp"
#include "status.hpp"

namespace {

namespace protocol = hxrt::detail::probe_protocol;
using hxrt::detail::Plugin;

void report(const std::string& line) {
  const std::string text = line + "\n";
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t wrote = write(protocol::kReportFd, text.data() + done, text.size() - done);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) return;  // the core stopped listening; it will not read the verdict anyway
    done += static_cast<size_t>(wrote);
  }
}

void step(const std::string& call) { report(protocol::kStep + call); }

// A crash must end this process with its signal, for the core to name it. A sanitizer's
// handlers would turn it into an exit code, and an ignored signal survives exec.
void restore_default_crash_signals() {
  for (int signal : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS}) {
    std::signal(signal, SIG_DFL);
  }
}

// device_count, then device_get and device_properties of each device, as start-up does. A
// call that fails ends the enumeration: the in-process load reports the failure.
void enumerate_devices(const std::shared_ptr<Plugin>& plugin) {
  const hx_plugin_api& api = plugin->api();
  if (api.device_count == nullptr || api.device_get == nullptr ||
      api.device_properties == nullptr) {
    return;
  }
  step("device_count");
  int32_t count = 0;
  if (hx_status* status = api.device_count(plugin->state(), &count)) {
    hxrt::detail::free_status(status);
    return;
  }
  if (count > hxrt::detail::kMaxDevicesPerPlugin) return;  // the in-process load refuses it
  for (int32_t ordinal = 0; ordinal < count; ++ordinal) {
    step("device_get or device_properties of device " + std::to_string(ordinal));
    try {
      hxrt::detail::PhysicalDevice device(plugin, ordinal, ordinal);
    } catch (const hxrt::Error&) {
      return;
    }
  }
}

// The whole of `text` as a decimal uint32_t; nullopt otherwise.
std::optional<uint32_t> parse_count(std::string_view text) {
  uint32_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

void probe(const std::string& path, const std::string& options, uint32_t intra_op_threads) {
  step("dlopen");
  void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) return;  // the in-process load skips it with dlerror's reason
  auto init = reinterpret_cast<hx_plugin_init_fn>(dlsym(library, HX_PLUGIN_INIT_SYMBOL));
  if (init == nullptr) return;

  hxrt::detail::OpRegistry ops;
  hxrt::detail::add_builtin_ops(ops);
  hxrt::detail::CoreHandle core = hxrt::detail::make_core_handle();
  core->plugin_name = hxrt::detail::plugin_name_from_path(path);
  core->logger = std::make_shared<hxrt::detail::Logger>();  // to stderr, which the core reads
  core->core_ops = &ops;
  const hx_plugin_init_args args =
      hxrt::detail::plugin_init_args(core.get(), options, intra_op_threads);
  step(HX_PLUGIN_INIT_SYMBOL);
  const hx_plugin_api* api = nullptr;
  hx_status* status = nullptr;
  try {
    status = init(&args, &api);
  } catch (...) {
    return;  // the in-process load catches it too, and skips the plugin
  }
  if (status != nullptr) {
    hxrt::detail::free_status(status);
    return;
  }
  if (api == nullptr) return;

  step("the core's read of its function table");
  // A table the in-process load would skip is not called here either.
  if (api->struct_size < HX_STRUCT_SIZE(hx_plugin_api, abi_minor) ||
      api->abi_major != HX_ABI_VERSION_MAJOR || api->struct_size < HX_PLUGIN_API_STRUCT_SIZE ||
      hx_plugin_api_short_group(api) != nullptr ||
      hx_plugin_api_missing_function(api) != nullptr) {
    return;
  }
  auto plugin = std::make_shared<Plugin>(path, library, *api, std::move(core));
  enumerate_devices(plugin);
  step("shutdown or dlclose");
  plugin.reset();
}

}  // namespace

int main(int argc, char** argv) {
  restore_default_crash_signals();
  const std::optional<uint32_t> intra_op_threads =
      argc == 4 ? parse_count(argv[3]) : std::nullopt;
  if (!intra_op_threads) {
    report(std::string(protocol::kError) +
           "usage: hxrt-probe <plugin file> <options JSON> <intra-op threads>");
    return 2;
  }
  try {
    probe(argv[1], argv[2], *intra_op_threads);
  } catch (const std::exception& error) {
    report(protocol::kError + std::string(error.what()));
    return 1;
  }
  report(protocol::kDone);
  return 0;
}
