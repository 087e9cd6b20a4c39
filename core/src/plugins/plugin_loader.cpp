#include "plugins/plugin_loader.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <optional>
#include <set>
#include <system_error>

#include "hxrt/plugin_vocabulary.h"
#include "config/json_pointer.hpp"
#include "plugins/core_location.hpp"
#include "plugins/init_args.hpp"
#include "base/plugin_identity.hpp"
#include "plugins/plugin_limits.hpp"
#include "plugins/plugin_probe.hpp"
#include "plugins/refused_options.hpp"
#include "base/status.hpp"

namespace hxrt::detail {
namespace fs = std::filesystem;
namespace {

// Thrown inside the loader to skip a candidate with a reason.
struct Skip {
  std::string reason;
};

std::vector<std::string> expand_candidates(const std::vector<std::string>& paths,
                                           std::vector<PluginReport>& report) {
  std::vector<std::string> files;
  for (const std::string& path : paths) {
    std::error_code error;
    if (fs::is_directory(path, error)) {
      std::vector<std::string> found;
      for (const auto& entry : fs::directory_iterator(path, error)) {
        std::string file = entry.path().filename().string();
        if (file.rfind("libhx_", 0) == 0 && entry.path().extension() == ".so") {
          found.push_back(entry.path().string());
        }
      }
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    } else if (fs::exists(path, error)) {
      files.push_back(path);
    } else {
      PluginReport entry;
      entry.path = path;
      entry.reason = "no such file or folder";
      report.push_back(entry);
    }
  }
  return files;
}

// Why `path` is no candidate although it is there; "" for a regular file (after symbolic
// links). dlopen opens what it is given: a FIFO blocks it until someone writes to the FIFO,
// and a device file may do anything.
std::string not_a_regular_file(const std::string& path) {
  std::error_code error;
  switch (fs::status(path, error).type()) {
    case fs::file_type::regular: return {};
    case fs::file_type::not_found: return "no such file (a symbolic link to nothing?)";
    case fs::file_type::directory: return "not a regular file: a folder";
    case fs::file_type::fifo: return "not a regular file: a FIFO";
    case fs::file_type::socket: return "not a regular file: a socket";
    case fs::file_type::block: return "not a regular file: a block device";
    case fs::file_type::character: return "not a regular file: a character device";
    default:
      return "not a regular file" + (error ? ": " + error.message() : std::string());
  }
}

// A present optional group must be whole, and every required function set
// (hx_plugin_api_short_group, hx_plugin_api_missing_function: the ABI's own check).
void check_required_functions(const hx_plugin_api& api) {
  if (const char* group = hx_plugin_api_short_group(&api)) {
    throw Skip{std::string("optional group '") + group + "' has a struct_size smaller than "
               "ABI " + std::to_string(HX_ABI_VERSION_MAJOR) + "." +
               std::to_string(HX_ABI_VERSION_MINOR) + " defines; set it to its " +
               "HX_<GROUP>_API_STRUCT_SIZE, or leave the group NULL"};
  }
  if (const char* missing = hx_plugin_api_missing_function(&api)) {
    throw Skip{std::string("required function '") + missing + "' is NULL" +
               (std::strchr(missing, '.') != nullptr
                    ? "; a group given must have every function (or leave the group NULL)"
                    : "")};
  }
}

class Loader {
 public:
  // `probe` (may be NULL: probing is off) vets each plugin before it is loaded here.
  Loader(const std::map<std::string, std::string>& options,
         const std::vector<std::string>& disabled, uint32_t intra_op_threads,
         std::shared_ptr<Logger> logger, OpRegistry& ops, KernelRegistry& kernels,
         PluginProbe* probe)
      : options_(options),
        disabled_(disabled),
        intra_op_threads_(intra_op_threads),
        logger_(std::move(logger)),
        ops_(ops),
        kernels_(kernels),
        probe_(probe) {}

  void load(const std::string& path, LoadedPlugins& out) {
    PluginReport entry;
    entry.path = path;
    entry.name = printable(plugin_name_from_path(path));
    try {
      out.plugins.push_back(load_one(path, entry));
      entry.loaded = true;
      logger_->log(LogLevel::kInfo, "loaded plugin '" + entry.name + "' " + entry.version +
                                        " (ABI " + entry.abi_version + ") from " +
                                        printable(path) + ": " +
                                        std::to_string(entry.device_count) + " " +
                                        entry.device_type + " device(s)" +
                                        (entry.note.empty() ? "" : " (" + entry.note + ")"));
    } catch (const OptionsRefused&) {
      throw;  // a mistake in the configuration: start-up fails
    } catch (const Skip& skip) {
      // A reason may quote the file name or dlerror()'s text about it, which no plugin vets.
      entry.reason = printable(skip.reason);
      logger_->log(LogLevel::kWarning, "skipped plugin " + printable(path) + ": " + entry.reason);
    } catch (const std::exception& e) {
      entry.reason = printable(std::string("unexpected error while loading: ") + e.what());
      logger_->log(LogLevel::kWarning, "skipped plugin " + printable(path) + ": " + entry.reason);
    }
    out.report.push_back(entry);
  }

 private:
  std::shared_ptr<Plugin> load_one(const std::string& path, PluginReport& entry) {
    check_enabled(plugin_name_from_path(path));
    if (std::string reason = not_a_regular_file(path); !reason.empty()) throw Skip{reason};
    if (probe_ != nullptr) {
      std::string reason =
          probe_->check(path, entry.name, options_for(path), intra_op_threads_);
      if (!reason.empty()) throw Skip{reason};
    }
    void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) throw Skip{std::string("dlopen failed: ") + dlerror()};
    // From here on, the library must be closed on every way out until a Plugin owns it.
    struct Closer {
      void* library;
      ~Closer() {
        if (library) dlclose(library);
      }
    } closer{library};

    dlerror();
    auto init = reinterpret_cast<hx_plugin_init_fn>(dlsym(library, HX_PLUGIN_INIT_SYMBOL));
    if (init == nullptr) {
      const char* error = dlerror();
      throw Skip{std::string("no entry symbol '") + HX_PLUGIN_INIT_SYMBOL +
                 "': " + (error ? error : "symbol is NULL")};
    }

    CoreHandle core = make_core_handle();
    core->plugin_name = entry.name;
    core->logger = logger_;
    core->core_ops = &ops_;

    const std::string options = options_for(path);
    const hx_plugin_init_args args = plugin_init_args(core.get(), options, intra_op_threads_);
    const hx_plugin_api* api = nullptr;
    hx_status* status = nullptr;
    try {
      status = init(&args, &api);
    } catch (...) {
      throw Skip{"init threw a C++ exception across the C ABI (catch it in the plugin)"};
    }
    {
      // A thread the plugin started may still be registering.
      std::lock_guard<std::mutex> lock(core->mutex);
      core->registration_open = false;
      core->options = nlohmann::json::object();  // the strings it lent lived until init returned
    }
    if (status != nullptr) {
      const bool options_refused =
          status->code == HX_INVALID_ARGUMENT && options_.count(plugin_name_from_path(path)) != 0;
      const std::string failure = consume_status(status);
      if (options_refused) refuse_options(path, failure);
      throw Skip{"init failed: " + failure};
    }
    if (api == nullptr) throw Skip{"init returned success but no function table"};

    // The version fields keep their place in every major, so they can be read first.
    if (api->struct_size < HX_STRUCT_SIZE(hx_plugin_api, abi_minor)) {
      throw Skip{"function table is " + std::to_string(api->struct_size) +
                 " bytes, too small to hold its ABI version"};
    }
    if (api->abi_major != HX_ABI_VERSION_MAJOR) {
      // Nothing beyond the version is laid out as this core knows, shutdown included.
      throw Skip{"plugin '" + entry.name + "' was built for plugin ABI " +
                 std::to_string(api->abi_major) + "." + std::to_string(api->abi_minor) +
                 ", and this core speaks ABI " + std::to_string(HX_ABI_VERSION_MAJOR) + "." +
                 std::to_string(HX_ABI_VERSION_MINOR) + "; rebuild the plugin against the " +
                 std::to_string(HX_ABI_VERSION_MAJOR) + ".x headers (hxrt/plugin_api.h)"};
    }
    if (api->struct_size < HX_PLUGIN_API_REQUIRED_SIZE) {
      // Call shutdown only if the short table still reaches it.
      if (api->struct_size >= HX_STRUCT_SIZE(hx_plugin_api, shutdown) && api->shutdown) {
        api->shutdown(api->plugin);
      }
      throw Skip{"function table is " + std::to_string(api->struct_size) +
                 " bytes, smaller than ABI " + std::to_string(HX_ABI_VERSION_MAJOR) +
                 ".0's (" + std::to_string(HX_PLUGIN_API_REQUIRED_SIZE) +
                 " bytes); set struct_size to HX_PLUGIN_API_STRUCT_SIZE"};
    }

    closer.library = nullptr;  // the Plugin owns it now, and shuts down on every way out
    auto plugin = std::make_shared<Plugin>(path, library, *api, std::move(core));
    fill_identity(*plugin, entry);
    check_enabled(plugin->name());
    check_name_free(*plugin);
    check_required_functions(plugin->api());
    check_ordering(*plugin, entry);
    count_devices(*plugin, entry);
    commit_ops(*plugin);
    path_by_name_[plugin->name()] = path;
    commit_kernels(*plugin);
    return plugin;
  }

  // The JSON options the plugin file `path` gets: by its file's name, "{}" when none.
  std::string options_for(const std::string& path) const {
    auto found = options_.find(plugin_name_from_path(path));
    return found != options_.end() ? found->second : "{}";
  }

  // Options the configuration gave and the plugin refused: the plugin is not skipped (that
  // would hide the mistake behind a warning) but fails start-up.
  [[noreturn]] void refuse_options(const std::string& path, const std::string& failure) const {
    const std::string name = plugin_name_from_path(path);
    throw OptionsRefused(
        pointer_child("/plugins/options", name),
        printable(refused_options_path(name, options_.at(name), failure) + ": plugin " + path +
                  " refused its options: " + failure +
                  "; correct the option or remove it from the configuration"));
  }

  // A plugin named in plugins.disabled is skipped: by its file's name before anything of it
  // runs, and by its table's name after init (a file may be named otherwise).
  void check_enabled(const std::string& name) const {
    auto found = std::find(disabled_.begin(), disabled_.end(), name);
    if (found == disabled_.end()) return;
    throw Skip{"disabled by /plugins/disabled/" + std::to_string(found - disabled_.begin())};
  }

  // Streams without events (or the reverse) cannot be ordered: run the plugin synchronously.
  void check_ordering(Plugin& plugin, PluginReport& entry) {
    const hx_plugin_api& api = plugin.api();
    if ((api.streams == nullptr) == (api.events == nullptr)) return;
    const std::string note = std::string("it has ") + (api.streams ? "streams" : "events") +
                             " but no " + (api.streams ? "events" : "streams") +
                             ", and the core orders work across streams only with events: "
                             "it runs synchronously";
    plugin.run_synchronously();
    entry.note = note;
    logger_->log(LogLevel::kWarning, "plugin '" + plugin.name() + "': " + note);
  }

  void fill_identity(Plugin& plugin, PluginReport& entry) {
    entry.abi_version = plugin.abi_version();
    if (plugin.api().name == nullptr || plugin.api().version == nullptr ||
        plugin.api().device_type == nullptr) {
      throw Skip{"function table lacks name, version or device_type"};
    }
    try {
      check_plugin_name(plugin.name());
      check_plugin_version(plugin.version());
      check_device_type(plugin.device_type(), "device type");
    } catch (const Error& e) {
      throw Skip{e.what()};
    }
    entry.name = plugin.name();
    entry.version = plugin.version();
    entry.device_type = plugin.device_type();
  }

  // Options, kernels and log lines know a plugin by its name, so two must not share one.
  void check_name_free(const Plugin& plugin) const {
    auto taken = path_by_name_.find(plugin.name());
    if (taken == path_by_name_.end()) return;
    throw Skip{"plugin name '" + plugin.name() + "' is already taken by " +
               printable(taken->second) + ", loaded before " + printable(plugin.path()) +
               "; two plugins need two names (remove one of the files)"};
  }

  void count_devices(Plugin& plugin, PluginReport& entry) {
    int32_t count = 0;
    hx_status* status = plugin.api().device_count(plugin.state(), &count);
    if (status != nullptr && status->code == HX_UNAVAILABLE) {
      entry.note += (entry.note.empty() ? "" : "; ") + status->message;
      free_status(status);
      count = 0;
    } else if (status != nullptr) {
      throw Skip{"device_count failed: " + consume_status(status)};
    } else if (count < 0 || count > kMaxDevicesPerPlugin) {
      throw Skip{"device_count returned " + std::to_string(count) + "; a plugin has 0 to " +
                 std::to_string(kMaxDevicesPerPlugin) + " devices"};
    }
    plugin.set_device_count(count);
    entry.device_count = count;
  }

  // The plugin's ops take effect now that the plugin is accepted.
  void commit_ops(Plugin& plugin) {
    hx_core_s& core = plugin.core_handle();
    {
      std::lock_guard<std::mutex> lock(core.mutex);  // a thread of the plugin may be logging
      core.plugin_name = plugin.name();
    }
    for (const OpSchema* pending : core.pending->ops.all()) {
      OpSchema schema = *pending;
      schema.owner = plugin.name();
      ops_.add(std::move(schema));
    }
    core.pending->ops = OpRegistry();
  }

  void commit_kernels(Plugin& plugin) {
    hx_core_s& core = plugin.core_handle();
    for (const KernelEntry* pending : core.pending->kernels.all()) {
      KernelEntry kernel = *pending;
      kernel.plugin = plugin.name();
      kernel.device_type = plugin.device_type();
      kernel.check_each_call = kernel.check != nullptr && plugin.api().abi_minor < 3;
      const OpSchema* op = ops_.find(kernel.op);
      if (op != nullptr && op->extents_at_run && plugin.api().abi_minor < 8) {
        logger_->log(LogLevel::kWarning,
                     "kernel ignored: plugin '" + plugin.name() + "' (ABI " +
                         plugin.abi_version() + ") registered " + kernel.op +
                         ", whose output extents a kernel reports through "
                         "hx_kernel_args.output_extents (ABI 2.8); rebuild the plugin");
        continue;
      }
      try {
        kernels_.add(std::move(kernel));
      } catch (const Error& e) {
        logger_->log(LogLevel::kWarning, std::string("kernel ignored: ") + e.what());
      }
    }
    core.pending->kernels = KernelRegistry();
  }

  const std::map<std::string, std::string>& options_;
  const std::vector<std::string>& disabled_;
  const uint32_t intra_op_threads_;  // every init's hx_plugin_init_args.intra_op_threads
  std::shared_ptr<Logger> logger_;
  OpRegistry& ops_;
  KernelRegistry& kernels_;
  PluginProbe* probe_;
  std::map<std::string, std::string> path_by_name_;  // of the accepted plugins
};

}  // namespace

LoadedPlugins load_plugins(const std::vector<std::string>& candidates,
                           const std::map<std::string, std::string>& options,
                           const std::vector<std::string>& disabled, uint32_t intra_op_threads,
                           const std::shared_ptr<Logger>& logger, OpRegistry& ops,
                           KernelRegistry& kernels, const ProbeSettings& probe_settings) {
  LoadedPlugins out;
  std::optional<PluginProbe> probe;
  if (probe_settings.enabled) probe.emplace(probe_settings, logger);
  Loader loader(options, disabled, intra_op_threads, logger, ops, kernels,
                probe ? &*probe : nullptr);
  std::set<std::string> seen;
  for (const std::string& file : expand_candidates(candidates, out.report)) {
    std::error_code error;
    std::string identity = fs::weakly_canonical(file, error).string();
    if (!seen.insert(error ? file : identity).second) continue;  // one load per file
    loader.load(file, out);
  }
  if (probe) probe->save();
  return out;
}

std::string installed_plugin_dir() {
  const std::string core = core_library_dir();
  return core.empty() ? core : (fs::path(core) / HXRT_PLUGIN_SUBDIR).string();
}

std::string plugin_name_from_path(const std::string& path) {
  std::string stem = fs::path(path).filename().string();
  if (stem.rfind("lib", 0) == 0) stem = stem.substr(3);
  if (stem.rfind("hx_", 0) == 0) stem = stem.substr(3);
  size_t dot = stem.find('.');
  return dot == std::string::npos ? stem : stem.substr(0, dot);
}

}  // namespace hxrt::detail
