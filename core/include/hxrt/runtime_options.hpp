// What an embedding program tells Runtime::create (RuntimeOptions), and the placement modes,
// placers and placement functions those options, Runtime's setters and CompileOptions take:
// value types, apart from the Runtime facade (hxrt/runtime.hpp) so that the core's lower layers
// read them without it.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "hxrt/dtype.hpp"
#include "hxrt/export.hpp"
#include "hxrt/log.hpp"

namespace hxrt {

// What happens when the requested device cannot run an op (docs/placement.md).
enum class SoftPlacement {
  // Both a device without a kernel for the op and a device that does not exist are errors.
  kStrict,
  // A device without a kernel falls back to the best device that has one (TensorFlow's
  // behaviour for ops like tf.cast); a device that does not exist is an error. The default.
  kFallbackOnMissingKernel,
  // Both fall back to the best device that can run the op.
  kSoft,
};

// How compile places the nodes that carry no device request (docs/dynamic-placer.md).
enum class GraphPlacer {
  kSimple,   // TensorFlow's simple placer: by device priority
  kDynamic,  // list scheduling on the cost model: measured kernel and copy times, memory
};

// "strict", "missing_kernel", "soft" (the config file's spellings).
HXRT_API const char* soft_placement_name(SoftPlacement mode);

// What a placement function sees of one op call.
struct OpPlacementInfo {
  std::string op;
  std::vector<DType> input_dtypes;
  std::vector<std::string> input_devices;  // canonical names
};
// Returns a device spec for the op ("/GPU:1", "CPU:0", ...), or "" to let priority decide.
using PlacementFunction = std::function<std::string(const OpPlacementInfo& op)>;

// Settings given by the embedding program. They override the config file and the environment.
struct RuntimeOptions {
  // A JSON config file. Empty: $HXRT_CONFIG if set, else no file.
  std::string config_path;
  // Plugin folders or shared objects, searched after the config's and $HXRT_PLUGIN_PATH's.
  std::vector<std::string> plugin_paths;
  // Also search the plugin folder installed beside the core library (lib/hxrt/plugins).
  bool use_installed_plugins = true;
  // Options for one plugin, by plugin name: a JSON object as text.
  std::map<std::string, std::string> plugin_options;
  // Overrides "plugins.probe" and $HXRT_PROBE_PLUGINS: load each plugin in a child process
  // first, and skip one that crashes, exits or hangs there (docs/tools.md, "Probing plugins").
  std::optional<bool> probe_plugins;
  // Overrides "plugins.disabled": plugins not to load, by name ("sim").
  std::optional<std::vector<std::string>> disabled_plugins;
  // Overrides "log_device_placement" and $HXRT_LOG_DEVICE_PLACEMENT.
  std::optional<bool> log_device_placement;
  // Overrides "log_level" and $HXRT_LOG_LEVEL.
  std::optional<LogLevel> log_level;
  // Replaces the default stderr sink before start-up logs anything.
  LogSink log_sink;
  // Overrides "placement.soft_placement".
  std::optional<SoftPlacement> soft_placement;
  // Overrides "placement.device_priority": device types, most preferred first; types not
  // listed follow in the default order (by placement class: discrete accelerators, then
  // CPUs, then accelerators that run on the host's processors; then by name).
  std::optional<std::vector<std::string>> device_priority;
  // Overrides "placement.tensor_device": where a tensor made with no device and outside
  // every device scope goes ("CPU:0", "/GPU:1"). Unset: the first device of the
  // highest-priority type (device_priority()), where TensorFlow puts it.
  std::optional<std::string> tensor_device;
  // Override "execution.inter_op_threads" and $HXRT_INTER_OP_THREADS: the threads that run
  // graph nodes' host-side work (TensorFlow's inter-op parallelism); 0 to 4096, 0 meaning one
  // per core.
  std::optional<int> inter_op_threads;
  // Override "execution.intra_op_threads" and $HXRT_INTRA_OP_THREADS: the threads one kernel
  // may use, which every plugin receives at init (the CPU plugin's OpenBLAS); 0 to 4096, 0
  // leaving each plugin's default.
  std::optional<int> intra_op_threads;
  // For a program that initialised MPI itself: the address of its MPI_Comm whose processes
  // are to be the cluster's tasks (docs/cluster.md), as `&comm`; the runtime then joins that
  // cluster whatever "cluster.enabled" says, taking its ranks in that communicator as the
  // tasks' ranks. It is duplicated when the process's first runtime is created, and every
  // later runtime of the process must name the same one. nullptr: MPI_COMM_WORLD.
  const void* mpi_communicator = nullptr;
};

}  // namespace hxrt
