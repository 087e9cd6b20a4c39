// The embedding API: create a Runtime, look at what it loaded, make tensors, run ops.
//
//   hxrt::Runtime rt = hxrt::Runtime::create();
//   hxrt::Tensor a = rt.tensor<float>({2, 3}, {1, 2, 3, 4, 5, 6});
//   hxrt::Tensor c = rt.execute("MatMul", {a, b});
//   const hxrt::Op matmul = rt.op("MatMul");  // for a loop: no lookup by name per call
//   hxrt::Tensor d = rt.execute(matmul, {c, b});
//
// Every failure throws hxrt::Error; nothing a user or a plugin does aborts the process.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "hxrt/attrs.hpp"
#include "hxrt/cluster_info.hpp"
#include "hxrt/config_setting.hpp"
#include "hxrt/device_info.hpp"
#include "hxrt/device_setup.hpp"
#include "hxrt/dtype.hpp"
#include "hxrt/error.hpp"
#include "hxrt/executable.hpp"
#include "hxrt/export.hpp"
#include "hxrt/log.hpp"
#include "hxrt/memory_stats.hpp"
#include "hxrt/op.hpp"
#include "hxrt/onnx_model.hpp"
#include "hxrt/op_info.hpp"
#include "hxrt/pinned_memory.hpp"
#include "hxrt/placement_plan.hpp"
#include "hxrt/runtime_options.hpp"
#include "hxrt/shape.hpp"
#include "hxrt/tensor.hpp"

namespace hxrt {

class Runtime;

namespace detail {
struct GraphContext;
std::shared_ptr<GraphContext> graph_context_of(const Runtime& runtime);
}  // namespace detail

// While it lives, ops and tensors created on this thread without an explicit device go to
// its device (the innermost scope wins). Made by Runtime::device(); move-only.
// (Its members are exported one by one: GCC takes no visibility attribute beside [[nodiscard]].)
class [[nodiscard]] DeviceScope {
 public:
  HXRT_API DeviceScope(DeviceScope&& other) noexcept;
  DeviceScope& operator=(DeviceScope&&) = delete;
  DeviceScope(const DeviceScope&) = delete;
  HXRT_API ~DeviceScope();

 private:
  friend class Runtime;
  DeviceScope(const void* owner, uint64_t id) : owner_(owner), id_(id) {}
  const void* owner_;
  uint64_t id_;  // 0 once moved from
};

// No device asked for: the default of execute's `device`, which lets the placer choose; a
// constant, so that a call made without a device builds and destroys no empty string.
inline const std::string kAnyDevice{};

class HXRT_API Runtime {
 public:
  // Loads the config, discovers and loads plugins, enumerates physical devices, builds the
  // kernel registry. A broken plugin is skipped (see load_report()); a broken config throws
  // Error naming the JSON path. The logical devices come at initialisation (initialize()).
  static Runtime create(const RuntimeOptions& options = {});

  // A moved-from Runtime is empty: every method on it throws Error(kFailedPrecondition).
  Runtime(Runtime&&) noexcept;
  Runtime& operator=(Runtime&&) noexcept;
  ~Runtime();

  const std::vector<PluginReport>& load_report() const;
  // Devices as the plugins report them, before the visible filter and the logical split.
  // Does not initialise the runtime.
  std::vector<PhysicalDeviceInfo> physical_devices() const;
  // The logical devices ops run on. Initialises the runtime.
  // In a cluster, every task's: this one's first, then the others' in rank order
  // (DeviceInfo::local tells them apart).
  std::vector<DeviceInfo> devices() const;
  // The cluster this process is a task of, or in_cluster false (docs/cluster.md).
  ClusterInfo cluster() const;
  std::vector<KernelInfo> kernels() const;
  // Every op, the core's and the plugins' custom ones, in name order: its specification and
  // the kernels each device type has for it. Does not initialise the runtime.
  std::vector<OpInfo> ops() const;

  // Device setup (docs/configuration.md), as TensorFlow's tf.config: allowed until the
  // runtime is initialised, then each throws Error(kFailedPrecondition) with the guide's text. They
  // override the config file and the environment (but see HXRT_FORCE_MEMORY_GROWTH), and a
  // bad argument throws Error(kInvalidArgument) as a bad config value would.
  //
  // Only these physical devices ("GPU:1", "/physical_device:GPU:1", ...) stay visible, in
  // this order; types not named keep all theirs. A name that matches no physical device is
  // refused (Error(kInvalidArgument) listing them), as are such names in the config file and
  // $HXRT_VISIBLE_DEVICES (by Runtime::create). After initialisation, naming again the
  // devices that are visible (in their order) does nothing, and other names throw "Visible
  // devices cannot be modified after being initialized" (TensorFlow's rules).
  void set_visible_devices(const std::vector<std::string>& physical_devices);
  // At most `count` physical devices of `type` (the first visible ones); 0 hides the type.
  // After initialisation: "Visible devices cannot be modified after being initialized".
  void set_device_count(const std::string& type, int count);
  // Splits one physical device into logical devices, each with its own allocator. After
  // initialisation: "Virtual devices cannot be modified after being initialized".
  void set_logical_devices(const std::string& physical_device,
                           const std::vector<LogicalDeviceConfig>& devices);
  // The memory policy of a device type ("GPU") or of one physical device ("GPU:0"), merged
  // field by field over what the config file set. After initialisation: "Physical devices
  // cannot be modified after being initialized".
  void set_memory_policy(const std::string& type_or_device, const MemoryPolicy& policy);

  // Applies the device setup: visible filter, logical split, allocators (preallocating
  // where asked), streams. The first call that needs devices does it (execute, from_host,
  // to_device, devices, memory_stats, ...); calling it first reports setup errors early. A
  // setup that cannot be applied throws and leaves the runtime uninitialised, so the setters
  // can fix it and initialisation can be tried again.
  void initialize();
  bool initialized() const;

  // The allocator figures of one device ("GPU:0", "/device:GPU:0", ...). Initialises.
  MemoryStats memory_stats(const std::string& device) const;
  // Starts peak_bytes_in_use again from bytes_in_use.
  void reset_peak_memory(const std::string& device);
  // Gives every region no allocation uses back to the device(s): one device, or all when
  // `device` is empty. Returns the bytes given back. Live tensors are not touched.
  size_t release_unused_memory(const std::string& device = {});

  // Every setting with its effective value and its source (default, file, environment, API).
  std::vector<ConfigSetting> effective_config() const;

  // Runs an op that has one output. `device` may name a device ("/GPU:0", "CPU:0", ...);
  // empty lets the placer choose.
  Tensor execute(const std::string& op, std::initializer_list<TensorArg> inputs,
                 const Attrs& attrs = kNoAttrs, const std::string& device = kAnyDevice);
  Tensor execute(const std::string& op, const std::vector<Tensor>& inputs,
                 const Attrs& attrs = kNoAttrs, const std::string& device = kAnyDevice);
  // Runs an op with any number of outputs, and returns them all in the op's order: as many as
  // the op has, or for an op whose calls decide it, as many as `attrs` ask for (Split's).
  std::vector<Tensor> execute_multi(const std::string& op, const std::vector<Tensor>& inputs,
                                    const Attrs& attrs = kNoAttrs,
                                    const std::string& device = kAnyDevice);
  // The op `name`, resolved once (hxrt/op.hpp); Error(kNotFound) listing the ops when there is
  // none. The same three calls take it, and skip the lookup by name.
  Op op(const std::string& name) const;
  Tensor execute(const Op& op, std::initializer_list<TensorArg> inputs,
                 const Attrs& attrs = kNoAttrs, const std::string& device = kAnyDevice);
  Tensor execute(const Op& op, const std::vector<Tensor>& inputs, const Attrs& attrs = kNoAttrs,
                 const std::string& device = kAnyDevice);
  std::vector<Tensor> execute_multi(const Op& op, const std::vector<Tensor>& inputs,
                                    const Attrs& attrs = kNoAttrs,
                                    const std::string& device = kAnyDevice);

  // Compiles `graph` (hxrt/graph.hpp) to compute `fetches` (docs/graphs.md): the nodes
  // they need are placed by TensorFlow's simple placer under the soft-placement mode (logged
  // with the device mapping when placement logging is on), transfers are inserted where an
  // edge crosses devices, kernel instances are made, and the memory of a run is planned.
  // Error names the node that cannot be placed, or the device whose memory limit the plan
  // exceeds, with the figures. The executable keeps this runtime's state alive.
  Executable compile(const Graph& graph, const std::vector<NodeOutput>& fetches,
                     const CompileOptions& options = {});

  // Where the dynamic placer would run `graph`'s nodes for `fetches` on a cluster that
  // `topology_json` describes (hxrt/placement_plan.hpp; docs/cluster.md, "Planning on a
  // topology"): tasks with devices like this process's, and the network between them. Nothing
  // is compiled or run. Error(kInvalidArgument) names the JSON pointer of a malformed
  // topology, or the node whose request names no device of it or that no device can run.
  PlacementPlan plan_placement(const Graph& graph, const std::vector<NodeOutput>& fetches,
                               const std::string& topology_json,
                               const CompileOptions& options = {});

  // The ONNX model in the file at `path` as a Graph (hxrt/onnx_model.hpp, docs/models.md),
  // built on this runtime: compile its graph for its outputs and run it with its inputs by
  // name. Initializers become graph constants; nodes whose inputs are known at load are
  // computed then, on the host. Error(kNotFound) for no such file; Error(kInvalidArgument)
  // for a file that is not a model, an open dimension left unbound, and a node whose op,
  // version, attribute or input hxrt does not implement, naming it and what hxrt supports.
  OnnxModel load_onnx(const std::string& path, const OnnxLoadOptions& options = {});
  // The same from the model's bytes (external data from options.external_data_dir).
  OnnxModel load_onnx(const void* data, size_t size, const OnnxLoadOptions& options = {});

  // The dynamic placer's cost model (docs/dynamic-placer.md): the calibrated speed of
  // each device and link and the recent timings of kernels and copies that graph runs
  // measured, as JSON, devices by canonical name. CompileOptions::cost_model_json or
  // load_cost_model_json gives it back to a later runtime; entries of devices it does not have
  // are skipped, and a malformed text is Error(kInvalidArgument) naming the JSON path.
  std::string cost_model_json() const;
  void load_cost_model_json(const std::string& text);

  // A tensor on `device` holding a copy of `bytes` bytes from `data`. No device: the innermost
  // device scope's, else placement.tensor_device, else the first device of the
  // highest-priority type (where TensorFlow puts it). `bytes` must equal
  // tensor_bytes(dtype, shape), and a bool tensor's bytes must each be 0 or 1.
  // Error(kInvalidArgument) otherwise, and for a shape too large for any tensor.
  Tensor from_host(DType dtype, const Shape& shape, const void* data, size_t bytes,
                   const std::string& device = {});
  template <class T>
  Tensor tensor(const Shape& shape, const std::vector<T>& values,
                const std::string& device = {}) {
    if constexpr (std::is_same_v<T, bool>) {
      // std::vector<bool> packs bits and has no data(); a bool tensor stores a byte per element.
      const std::vector<unsigned char> stored(values.begin(), values.end());
      return from_host(DType::kBool, shape, stored.data(), stored.size(), device);
    } else {
      return from_host(dtype_of<T>(), shape, values.data(), values.size() * sizeof(T), device);
    }
  }
  // A copy of `tensor` on another device (the same handle when it is already there).
  Tensor to_device(const Tensor& tensor, const std::string& device);
  // `bytes` (> 0) of page-locked host memory (hxrt/pinned_memory.hpp) from the plugin of
  // `device`, for its devices. No device: the first device, by type priority, whose plugin
  // offers it. Error(kInvalidArgument) when that plugin offers none (or none does), and
  // Error(kOutOfMemory) when the plugin cannot give that much.
  PinnedMemory pinned_memory(size_t bytes, const std::string& device = {});
  // A host tensor (on /CPU:0) that lives in `memory` from byte `offset` (a multiple of the CPU
  // device's alignment, 64), sharing it: what a loader writes into memory.data() is the
  // tensor's elements, with no copy. The CPU reads and writes it as any tensor of its, and a
  // copy of it to a device of the plugin that gave the memory (to_device, a graph's feed) is
  // that device's DMA straight from it, with no staging copy and without the host waiting, as
  // from a torch tensor after pin_memory(). Error(kInvalidArgument) when `memory` is empty,
  // the tensor does not fit in it from `offset`, the offset is not aligned, or there is no
  // CPU device.
  Tensor pinned_tensor(const PinnedMemory& memory, DType dtype, const Shape& shape,
                       size_t offset = 0);
  // A tensor on a device of host memory (`device`, "" for /CPU:0) whose elements are the
  // `data` of another library, dense and row-major, with no copy: DLPack's import, PJRT's
  // view of a buffer. The runtime reads and writes them in place; `owner` keeps the memory
  // valid and is released when the last Tensor of it, and the last read queued on it, are
  // gone. Error(kInvalidArgument) when `data` is not a multiple of what the device's kernels
  // need (DeviceInfo::min_alignment, and the dtype's size; copy the elements instead, with
  // from_host), the device's memory is not the host's, or the size overflows.
  Tensor view_of_host_memory(DType dtype, const Shape& shape, void* data,
                             std::shared_ptr<const void> owner, const std::string& device = {});
  // `tensor`'s elements in a new host tensor in page-locked memory from the plugin of `device`
  // (as pinned_memory chooses one): torch.Tensor.pin_memory. Waits for the work that writes
  // `tensor`.
  Tensor pin_memory(const Tensor& tensor, const std::string& device = {});

  // Ops, copies and from_host return once their work is queued on the device's stream, so
  // devices run at once (docs/embedding.md); reading a tensor waits for the
  // work that writes it, and only for that. synchronize waits for all work queued so far on
  // `device` ("" : on every device). An error of queued work surfaces here, or at the first
  // wait for a tensor it wrote, as an Error naming the op, the device and the plugin; the
  // runtime stays usable.
  void synchronize(const std::string& device = {});

  // A device scope for this thread: `auto scope = rt.device("/GPU:1");`. The name is checked
  // now (malformed: Error(kInvalidArgument)); whether the device exists is decided per op,
  // under the soft-placement mode.
  DeviceScope device(const std::string& name);
  // Called for ops that have no device from the call or a scope; empty clears it.
  void set_placement_function(PlacementFunction function);
  void set_soft_placement(SoftPlacement mode);
  SoftPlacement soft_placement() const;
  // Device types in placement order.
  std::vector<std::string> device_priority() const;

  // Placement logging ("Executing op MatMul in device ..."), switchable at any time.
  void set_log_device_placement(bool enabled);
  bool log_device_placement() const;
  void set_log_sink(LogSink sink);

  // The timeline trace (docs/embedding.md, "Timeline trace"): every op, copy, host wait and
  // allocation, per device, stream and host thread, as Chrome trace JSON that Perfetto opens.
  // One trace per process, recording every runtime's work. start_trace opens `path` at once:
  // a path that cannot be written is Error(kInvalidArgument) here, and a trace already
  // running (from this call or trace.path / $HXRT_TRACE) is Error(kFailedPrecondition).
  void start_trace(const std::string& path);
  // Writes the running trace and returns its path; "" when no trace was running. The trace
  // a runtime started is also written when that runtime is destroyed, or at exit.
  std::string stop_trace();

  struct HXRT_INTERNAL Impl;

 private:
  // The graph layer's view of the runtime: what graphs built, compiled and run here use.
  friend std::shared_ptr<detail::GraphContext> detail::graph_context_of(const Runtime& runtime);
  explicit Runtime(std::unique_ptr<Impl> impl);
  // The state every method works on; Error(kFailedPrecondition) for a moved-from Runtime.
  // Inline: every execute asks for it.
  Impl& impl() const {
    if (impl_ == nullptr) throw_moved_from();
    return *impl_;
  }
  [[noreturn]] static void throw_moved_from();
  // Shared with the executables compiled here, which run on its devices and kernels.
  std::shared_ptr<Impl> impl_;
};

}  // namespace hxrt
