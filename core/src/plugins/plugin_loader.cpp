#include "plugins/plugin_loader.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <optional>
#include <set>
#include <system_error>

#include "plugins/core_location.hpp"
#include "plugins/plugin_identity.hpp"
#include "plugins/plugin_limits.hpp"
#include "plugins/plugin_probe.hpp"
#include "status.hpp"

namespace hxrt::detail {
namespace fs = std::filesystem;
namespace {

// Tables of ABI 1.0 are the oldest this core reads.
constexpr size_t kOldestPluginApiSize = HX_PLUGIN_API_STRUCT_SIZE;

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

void check_required_functions(const hx_plugin_api& api) {
  struct Required {
    const char* name;
    bool present;
  };
  const Required required[] = {
      {"shutdown", api.shutdown != nullptr},
      {"device_count", api.device_count != nullptr},
      {"device_get", api.device_get != nullptr},
      {"device_properties", api.device_properties != nullptr},
      {"memory_info", api.memory_info != nullptr},
      {"allocate", api.allocate != nullptr},
      {"deallocate", api.deallocate != nullptr},
      {"memset", api.memset != nullptr},
      {"copy_host_to_device", api.copy_host_to_device != nullptr},
      {"copy_device_to_host", api.copy_device_to_host != nullptr},
      {"copy_device_to_device", api.copy_device_to_device != nullptr},
  };
  for (const Required& r : required) {
    if (!r.present) throw Skip{std::string("required function '") + r.name + "' is missing"};
  }
  const Required streams[] = {{"stream_create", api.stream_create != nullptr},
                              {"stream_destroy", api.stream_destroy != nullptr},
                              {"stream_synchronize", api.stream_synchronize != nullptr},
                              {"stream_query", api.stream_query != nullptr},
                              {"stream_wait_event", api.stream_wait_event != nullptr}};
  const Required events[] = {{"event_create", api.event_create != nullptr},
                             {"event_destroy", api.event_destroy != nullptr},
                             {"event_record", api.event_record != nullptr},
                             {"event_synchronize", api.event_synchronize != nullptr},
                             {"event_query", api.event_query != nullptr}};
  for (const auto* group : {&streams, &events}) {
    bool any = std::any_of(std::begin(*group), std::end(*group), [](auto& r) { return r.present; });
    for (const Required& r : *group) {
      if (any && !r.present) {
        throw Skip{std::string("optional group is incomplete: '") + r.name +
                   "' is missing while others of its group are given (give all five or none)"};
      }
    }
  }
}

class Loader {
 public:
  // `probe` (may be NULL: probing is off) vets each plugin before it is loaded here.
  Loader(const std::map<std::string, std::string>& options, std::shared_ptr<Logger> logger,
         OpRegistry& ops, KernelRegistry& kernels, PluginProbe* probe)
      : options_(options),
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

  // Registers the kernels of the plugins without devices. One whose device type another plugin
  // took keeps only its kernels for other types, and its load report says so.
  void finish(LoadedPlugins& out) {
    for (const std::shared_ptr<Plugin>& plugin : out.plugins) {
      if (plugin->device_count() > 0) continue;
      const Plugin& owner = *device_type_owner_.at(plugin->device_type());
      if (&owner != plugin.get()) {
        drop_kernels_of_type(*plugin, plugin->device_type());
        for (PluginReport& entry : out.report) {
          if (entry.loaded && entry.path == plugin->path()) {
            entry.note += (entry.note.empty() ? "" : "; ") + std::string("device type '") +
                          plugin->device_type() + "' is provided by plugin '" + owner.name() +
                          "', so its " + plugin->device_type() + " kernels are not registered";
          }
        }
      }
      commit_kernels(*plugin);
    }
  }

 private:
  std::shared_ptr<Plugin> load_one(const std::string& path, PluginReport& entry) {
    if (std::string reason = not_a_regular_file(path); !reason.empty()) throw Skip{reason};
    if (probe_ != nullptr) {
      std::string reason = probe_->check(path, entry.name, options_for(path));
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

    auto core = std::make_unique<hx_core_s>();
    core->plugin_name = entry.name;
    core->logger = logger_;
    core->core_ops = &ops_;
    core->accepted_kernels = &kernels_;

    const std::string options = options_for(path);
    hx_plugin_init_args args{HX_PLUGIN_INIT_ARGS_STRUCT_SIZE,
                             nullptr,
                             HX_ABI_VERSION_MAJOR,
                             HX_ABI_VERSION_MINOR,
                             core_services(),
                             core.get(),
                             options.c_str(),
                             options.size()};
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
    }
    if (status != nullptr) throw Skip{"init failed: " + consume_status(status)};
    if (api == nullptr) throw Skip{"init returned success but no function table"};

    // The version fields keep their place in every major, so they can be read first.
    if (api->struct_size < HX_STRUCT_SIZE(hx_plugin_api, abi_minor)) {
      throw Skip{"function table is " + std::to_string(api->struct_size) +
                 " bytes, too small to hold its ABI version"};
    }
    if (api->abi_major != HX_ABI_VERSION_MAJOR) {
      throw Skip{"plugin '" + entry.name + "' speaks ABI " + std::to_string(api->abi_major) +
                 "." + std::to_string(api->abi_minor) + ", core speaks " +
                 std::to_string(HX_ABI_VERSION_MAJOR) + "." +
                 std::to_string(HX_ABI_VERSION_MINOR)};
    }
    if (api->struct_size < kOldestPluginApiSize) {
      // Call shutdown only if the short table still reaches it.
      if (api->struct_size >= HX_STRUCT_SIZE(hx_plugin_api, shutdown) && api->shutdown) {
        api->shutdown(api->plugin);
      }
      throw Skip{"function table is " + std::to_string(api->struct_size) +
                 " bytes, smaller than the oldest this core supports (" +
                 std::to_string(kOldestPluginApiSize) + " bytes)"};
    }

    closer.library = nullptr;  // the Plugin owns it now, and shuts down on every way out
    auto plugin = std::make_shared<Plugin>(path, library, *api, std::move(core));
    fill_identity(*plugin, entry);
    check_name_free(*plugin);
    check_required_functions(plugin->api());
    count_devices(*plugin, entry);
    check_device_type_free(*plugin);
    commit_ops(*plugin);
    device_type_owner_[plugin->device_type()] = plugin;
    path_by_name_[plugin->name()] = path;
    // The kernels of a plugin without devices wait for finish(): a plugin with devices may
    // still take its device type, and must not find them in its way when it registers its own.
    if (plugin->device_count() > 0) commit_kernels(*plugin);
    return plugin;
  }

  // The JSON options the plugin file `path` gets: by its file's name, "{}" when none.
  std::string options_for(const std::string& path) const {
    auto found = options_.find(plugin_name_from_path(path));
    return found != options_.end() ? found->second : "{}";
  }

  // A plugin without devices (a GPU plugin on a machine without a GPU) holds its device type
  // only until a plugin with devices of that type comes: the sim plugin standing in for GPUs
  // must not be refused because the CUDA plugin found no driver.
  void check_device_type_free(const Plugin& plugin) {
    auto owner = device_type_owner_.find(plugin.device_type());
    if (owner == device_type_owner_.end()) return;
    const Plugin& holder = *owner->second;
    if (holder.device_count() > 0 || plugin.device_count() == 0) {
      throw Skip{"device type '" + plugin.device_type() + "' is already provided by plugin '" +
                 holder.name() + "'"};
    }
    logger_->log(LogLevel::kInfo, "plugin '" + plugin.name() + "' provides device type '" +
                                      plugin.device_type() + "' in place of plugin '" +
                                      holder.name() + "', which has no devices");
  }

  static void drop_kernels_of_type(Plugin& plugin, const std::string& device_type) {
    KernelRegistry kept;
    for (const KernelEntry* pending : plugin.core_handle().pending_kernels.all()) {
      if (pending->device_type != device_type) kept.add(*pending);
    }
    plugin.core_handle().pending_kernels = std::move(kept);
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
      entry.note = status->message;
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
    for (const OpSchema* pending : core.pending_ops.all()) {
      OpSchema schema = *pending;
      schema.owner = plugin.name();
      ops_.add(std::move(schema));
    }
    core.pending_ops = OpRegistry();
  }

  void commit_kernels(Plugin& plugin) {
    hx_core_s& core = plugin.core_handle();
    for (const KernelEntry* pending : core.pending_kernels.all()) {
      KernelEntry kernel = *pending;
      kernel.plugin = plugin.name();
      try {
        kernels_.add(std::move(kernel));
      } catch (const Error& e) {
        logger_->log(LogLevel::kWarning, std::string("kernel ignored: ") + e.what());
      }
    }
    core.pending_kernels = KernelRegistry();
  }

  const std::map<std::string, std::string>& options_;
  std::shared_ptr<Logger> logger_;
  OpRegistry& ops_;
  KernelRegistry& kernels_;
  PluginProbe* probe_;
  std::map<std::string, std::shared_ptr<Plugin>> device_type_owner_;
  std::map<std::string, std::string> path_by_name_;  // of the accepted plugins
};

}  // namespace

LoadedPlugins load_plugins(const std::vector<std::string>& candidates,
                           const std::map<std::string, std::string>& options,
                           const std::shared_ptr<Logger>& logger, OpRegistry& ops,
                           KernelRegistry& kernels, const ProbeSettings& probe_settings) {
  LoadedPlugins out;
  std::optional<PluginProbe> probe;
  if (probe_settings.enabled) probe.emplace(probe_settings, logger);
  Loader loader(options, logger, ops, kernels, probe ? &*probe : nullptr);
  std::set<std::string> seen;
  for (const std::string& file : expand_candidates(candidates, out.report)) {
    std::error_code error;
    std::string identity = fs::weakly_canonical(file, error).string();
    if (!seen.insert(error ? file : identity).second) continue;  // one load per file
    loader.load(file, out);
  }
  loader.finish(out);
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
