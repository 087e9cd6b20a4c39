// hxrt-probe: loads one plugin as the core's loader does, so that the core learns at the cost
// of this process, not its own, whether the plugin takes down the process that loads it.
// Started by the core (core/src/plugins/probe_process.cpp) as
//   hxrt-probe <plugin file> <options JSON> <intra-op threads>
// with this probe's key as one line on standard input, it reports each step on file
// descriptor 3 in lines signed with that key (core/src/plugins/probe_protocol.hpp, which says
// what the plugin, loaded into this very process, can and cannot fake). It uses the core's own
// pieces (core services, Plugin, PhysicalDevice), so that the plugin sees the same calls, with
// the same arguments, as when it is loaded for real.
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <csignal>
#include <cstdint>
#include <cstring>
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
#include "plugins/probe_key.hpp"
#include "plugins/probe_protocol.hpp"
#include "base/status.hpp"

namespace {

namespace protocol = hxrt::detail::probe_protocol;
using hxrt::detail::Plugin;

void write_line(const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t wrote = write(protocol::kReportFd, text.data() + done, text.size() - done);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) return;  // the core stopped listening; it will not read the verdict anyway
    done += static_cast<size_t>(wrote);
  }
}

// The key the core handed this probe, and the number of the next line it signs. Kept in this
// process's memory, where the plugin could find it: probe_protocol.hpp says why that is the
// limit of what can be done.
std::optional<hxrt::detail::ProbeKey> the_key;
uint64_t next_sequence = 0;

// A line before the key is known (a usage error) goes unsigned: the core never gets one, as it
// always starts the probe right; it is for a person running hxrt-probe by hand.
void report(const std::string& text) {
  if (!the_key) {
    write_line(text + "\n");
    return;
  }
  write_line(protocol::signed_line(*the_key, next_sequence++, text));
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
      api->abi_major != HX_ABI_VERSION_MAJOR || api->struct_size < HX_PLUGIN_API_REQUIRED_SIZE ||
      hx_plugin_api_short_group(api) != nullptr ||
      hx_plugin_api_missing_function(api) != nullptr) {
    return;
  }
  auto plugin = std::make_shared<Plugin>(path, library, *api, std::move(core));
  enumerate_devices(plugin);
  step("shutdown or dlclose");
  plugin.reset();
}

// The key, read to the end of standard input; stdin then becomes /dev/null, so that nothing
// of it is left in a descriptor the plugin could read. Returns what was wrong, or "".
std::string take_key() {
  char text[64];
  size_t got = 0;
  for (;;) {
    const ssize_t now = read(STDIN_FILENO, text + got, sizeof text - got);
    if (now < 0 && errno == EINTR) continue;
    if (now <= 0) break;
    got += static_cast<size_t>(now);
    if (got == sizeof text) break;
  }
  std::string_view line(text, got);
  if (!line.empty() && line.back() == '\n') line.remove_suffix(1);
  the_key = hxrt::detail::parse_probe_key(line);
  explicit_bzero(text, sizeof text);
  const int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (null < 0 || dup2(null, STDIN_FILENO) < 0) close(STDIN_FILENO);
  if (null >= 0 && null != STDIN_FILENO) close(null);
  if (!the_key) {
    return "no key on standard input (hxrt-probe is started by libhxrt, which gives it one)";
  }
  return {};
}

// In a process group of its own the probe no longer gets the terminal's Ctrl-C with the host;
// this makes it end with the host instead (the host's thread that started it waits for it, so
// that thread ending means the host is gone).
void end_with_the_host() {
  const pid_t host = getppid();
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != host) _exit(protocol::kCouldNotProbeExit);  // it went before prctl took hold
}

}  // namespace

int main(int argc, char** argv) {
  restore_default_crash_signals();
  end_with_the_host();
  const std::optional<uint32_t> intra_op_threads =
      argc == 4 ? parse_count(argv[3]) : std::nullopt;
  if (!intra_op_threads) {
    report(std::string(protocol::kError) +
           "usage: hxrt-probe <plugin file> <options JSON> <intra-op threads>");
    return protocol::kCouldNotProbeExit;
  }
  if (const std::string wrong = take_key(); !wrong.empty()) {
    report(protocol::kError + wrong);
    return protocol::kCouldNotProbeExit;
  }
  try {
    probe(argv[1], argv[2], *intra_op_threads);
  } catch (const std::exception& error) {
    report(protocol::kError + std::string(error.what()));
    return protocol::kCouldNotProbeExit;
  }
  report(protocol::kDone);
  return protocol::kFinishedExit;
}
