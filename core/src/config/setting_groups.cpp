// The groups of settings (setting_groups.hpp), in the order the schema gives them.
#include "config/setting_groups.hpp"

#include <stdexcept>

namespace hxrt::detail {

const char* const kConfigSchemaTitle = "hxrt configuration (hxrt.json)";

const std::vector<SettingGroup>& setting_groups() {
  static const std::vector<SettingGroup> groups{
      {"",
       "The config file that hxrt reads from `HXRT_CONFIG` or `RuntimeOptions::config_path`. "
       "Every key is optional. The environment (`HXRT_*`) overrides the file and "
       "`RuntimeOptions` and `Runtime`'s setters override both. The loader in `core/src/config` "
       "accepts exactly what this schema accepts, except for the checks a schema cannot express "
       "(`tests/config/cases` marks them `loader_only`): two keys of `\"devices\"` or two items "
       "of `\"visible_devices\"` naming the same device in different spellings, a key given "
       "twice in one object, and a device index above 2147483647."},
      {"/plugins", "Where plugins are found and the options each receives."},
      {"/placement", "How ops are placed on devices."},
      {"/graph",
       "Compile's passes over a graph before it is placed (see "
       "[Optimisation](graphs.md#optimisation)), each on unless turned off here; "
       "`CompileOptions::passes` overrides them per compile."},
      {"/visible_devices/<item>",
       "One physical device: `TYPE:INDEX`, in any case, optionally after `\"/\"`, "
       "`\"/device:\"` or `\"/physical_device:\"`."},
      {"/devices",
       "Settings by device type (`\"GPU\"`) or by physical device (`\"GPU:0\"`); a device's "
       "settings override its type's, field by field. Keys are compared after "
       "canonicalisation (upper case, prefixes dropped), so `\"gpu\"` and `\"GPU\"` may not "
       "both appear."},
      {"/devices/<type>", "Settings for every device of one type."},
      {"/devices/<device>", "Settings for one physical device."},
      {"/devices/<type or device>/memory",
       "How the device's allocator takes memory. Default: growth, no limit beyond the device's "
       "own, memory kept for reuse. `HXRT_FORCE_MEMORY_GROWTH=true` overrides `growth` and "
       "`preallocate` everywhere."},
      {"/memory", "The memory layer's own switches, for every device."},
      {"/trace",
       "The timeline trace (Chrome trace JSON, which Perfetto and `chrome://tracing` open): "
       "every op, copy, host wait and allocation per device, stream and host thread. Off "
       "unless `path` is given; `Runtime::start_trace` and `stop_trace` switch it at run time."},
      {"/execution",
       "The threads graph mode uses, as TensorFlow's inter- and intra-op parallelism "
       "settings."},
      {"/cluster",
       "A cluster of processes started by `mpirun`, each a task: whether this process is one, "
       "the job of each MPI rank, and how long a task waits for another (see "
       "[Clusters](cluster.md))."},
  };
  return groups;
}

const std::string& group_description(const std::string& path) {
  for (const SettingGroup& group : setting_groups()) {
    if (group.path == path) return group.description;
  }
  throw std::logic_error("no group of settings at '" + path +
                         "': describe it in core/src/config/setting_groups.cpp");
}

}  // namespace hxrt::detail
