// hxrt::Runtime and what it answers with: devices, ops, memory statistics, device scopes.
// Every call that may wait on a device or take a lock the runtime's threads take releases the
// GIL, so Python threads run while one waits.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nanobind/stl/map.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bindings.hpp"
#include "gil_held.hpp"

namespace hxpy {
namespace {

// A device scope that Python ends when its `with` block does (DeviceScope ends when destroyed,
// which a garbage-collected object would make late).
struct ScopeHolder {
  std::optional<hxrt::DeviceScope> scope;
  void close() { scope.reset(); }
};

hxrt::Runtime create_runtime(const std::string& config, const std::vector<std::string>& plugins,
                             bool use_installed_plugins, std::optional<std::string> log_level) {
  hxrt::RuntimeOptions options;
  options.config_path = config;
  options.plugin_paths = plugins;
  options.use_installed_plugins = use_installed_plugins;
  if (log_level) options.log_level = hxrt::parse_log_level(*log_level);
  const nb::gil_scoped_release unlocked;
  return hxrt::Runtime::create(options);
}

// The dtype of an array's elements for from_host: given by the caller (the storage dtype's
// own, or bfloat16 and the 8-bit floats over their storage), checked against the array's size.
hxrt::Tensor from_host(hxrt::Runtime& runtime,
                       nb::ndarray<nb::c_contig, nb::device::cpu, nb::ro> array,
                       hxrt::DType dtype, const std::string& device) {
  if (array.itemsize() != hxrt::dtype_size(dtype)) {
    throw nb::value_error(("an array of " + std::to_string(array.itemsize()) +
                           "-byte elements cannot hold " + hxrt::dtype_name(dtype) +
                           " elements of " + std::to_string(hxrt::dtype_size(dtype)) + " bytes")
                              .c_str());
  }
  return runtime.from_host(dtype, shape_of(array), array.data(), array.nbytes(), device);
}

nb::dict memory_stats(const hxrt::Runtime& runtime, const std::string& device) {
  const hxrt::MemoryStats stats = runtime.memory_stats(device);
  nb::dict out;
  out["bytes_in_use"] = stats.bytes_in_use;
  out["peak_bytes_in_use"] = stats.peak_bytes_in_use;
  out["bytes_reserved"] = stats.bytes_reserved;
  out["bytes_limit"] = stats.bytes_limit;
  out["allocation_count"] = stats.allocation_count;
  out["total_allocations"] = stats.total_allocations;
  out["largest_free_block"] = stats.largest_free_block;
  out["fragmentation"] = stats.fragmentation;
  return out;
}

// A Python placement function as the runtime's (Runtime::set_placement_function): called
// under the GIL with the op's OpPlacementInfo; its answer a device name, or "" or None for
// none. What it raises, or an answer of another type, is an Error naming the op.
void set_placement_function(hxrt::Runtime& runtime, nb::object function) {
  if (function.is_none()) {
    runtime.set_placement_function({});
    return;
  }
  auto held = std::make_shared<GilHeld<nb::object>>(std::move(function));
  runtime.set_placement_function([held](const hxrt::OpPlacementInfo& op) -> std::string {
    const nb::gil_scoped_acquire locked;
    std::string problem;
    try {
      const nb::object answer = held->object(nb::cast(op));
      if (answer.is_none()) return std::string();
      if (nb::isinstance<nb::str>(answer)) return nb::cast<std::string>(answer);
      problem = "returned a " + nb::cast<std::string>(nb::type_name(answer.type())) +
                "; it returns a device name (\"/GPU:0\"), or None to leave the op to the placer";
    } catch (nb::python_error& error) {
      problem = "raised " + nb::cast<std::string>(nb::type_name(error.type())) + ": " +
                nb::cast<std::string>(nb::str(error.value()));
    }
    throw hxrt::Error(hxrt::StatusCode::kInvalidArgument,
                      "the placement function, asked for " + op.op + ", " + problem);
  });
}

void bind_infos(nb::module_& module) {
  nb::class_<hxrt::OpPlacementInfo>(module, "OpPlacementInfo",
                                    "What a placement function sees of an op call.")
      .def_ro("op", &hxrt::OpPlacementInfo::op)
      .def_prop_ro(
          "type", [](const hxrt::OpPlacementInfo& op) { return op.op; },
          "The op's name, as TensorFlow's device functions read op.type.")
      .def_ro("input_dtypes", &hxrt::OpPlacementInfo::input_dtypes)
      .def_ro("input_devices", &hxrt::OpPlacementInfo::input_devices);
  nb::class_<hxrt::PluginReport>(module, "PluginReport",
                                 "A plugin file the runtime tried: loaded, or why not.")
      .def_ro("path", &hxrt::PluginReport::path)
      .def_ro("loaded", &hxrt::PluginReport::loaded)
      .def_ro("reason", &hxrt::PluginReport::reason)
      .def_ro("name", &hxrt::PluginReport::name)
      .def_ro("version", &hxrt::PluginReport::version)
      .def_ro("abi_version", &hxrt::PluginReport::abi_version)
      .def_ro("device_type", &hxrt::PluginReport::device_type)
      .def_ro("device_count", &hxrt::PluginReport::device_count)
      .def_ro("note", &hxrt::PluginReport::note);
  nb::class_<hxrt::PhysicalDeviceInfo>(
      module, "PhysicalDeviceInfo",
      "A device of a plugin: name, short_name (\"GPU:0\"), type, id, plugin, product, "
      "memory_total (bytes), placement_class, and the logical devices cut from it.")
      .def_ro("name", &hxrt::PhysicalDeviceInfo::name)
      .def_ro("short_name", &hxrt::PhysicalDeviceInfo::short_name)
      .def_ro("type", &hxrt::PhysicalDeviceInfo::type)
      .def_ro("id", &hxrt::PhysicalDeviceInfo::id)
      .def_ro("plugin", &hxrt::PhysicalDeviceInfo::plugin)
      .def_ro("product", &hxrt::PhysicalDeviceInfo::product)
      .def_ro("memory_total", &hxrt::PhysicalDeviceInfo::memory_total)
      .def_ro("placement_class", &hxrt::PhysicalDeviceInfo::placement_class)
      .def_ro("logical", &hxrt::PhysicalDeviceInfo::logical);
  nb::class_<hxrt::DeviceInfo>(
      module, "DeviceInfo",
      "A device ops run on: name, short_name, type, id, the physical device it is cut from, "
      "memory_policy, plugin, product, memory_total (bytes), the task of the cluster it is "
      "of, and whether it is this process's (local).")
      .def_ro("name", &hxrt::DeviceInfo::name)
      .def_ro("short_name", &hxrt::DeviceInfo::short_name)
      .def_ro("type", &hxrt::DeviceInfo::type)
      .def_ro("id", &hxrt::DeviceInfo::id)
      .def_ro("physical", &hxrt::DeviceInfo::physical)
      .def_ro("memory_policy", &hxrt::DeviceInfo::memory_policy)
      .def_ro("plugin", &hxrt::DeviceInfo::plugin)
      .def_ro("product", &hxrt::DeviceInfo::product)
      .def_ro("memory_total", &hxrt::DeviceInfo::memory_total)
      .def_ro("task", &hxrt::DeviceInfo::task)
      .def_ro("local", &hxrt::DeviceInfo::local);
  nb::class_<hxrt::ClusterInfo>(
      module, "ClusterInfo",
      "The cluster the process is a task of (docs/cluster.md): whether it is one (in_cluster), "
      "this task's name and MPI rank, every task's name in rank order, the MPI library.")
      .def_ro("in_cluster", &hxrt::ClusterInfo::in_cluster)
      .def_ro("task", &hxrt::ClusterInfo::task)
      .def_ro("rank", &hxrt::ClusterInfo::rank)
      .def_ro("tasks", &hxrt::ClusterInfo::tasks)
      .def_ro("mpi_library", &hxrt::ClusterInfo::mpi_library);
  nb::class_<hxrt::OpAttrInfo>(
      module, "OpAttrInfo",
      "An attribute of an op's schema: name, type (\"int\", \"list of ints\", ...), whether "
      "it is required, description.")
      .def_ro("name", &hxrt::OpAttrInfo::name)
      .def_prop_ro("type",
                   [](const hxrt::OpAttrInfo& attr) { return hxrt::attr_type_name(attr.type); })
      .def_ro("required", &hxrt::OpAttrInfo::required)
      .def_ro("description", &hxrt::OpAttrInfo::description);
  nb::class_<hxrt::OpArgInfo>(
      module, "OpArgInfo",
      "An input or output of an op's schema: name, description, whether it is variadic.")
      .def_ro("name", &hxrt::OpArgInfo::name)
      .def_ro("description", &hxrt::OpArgInfo::description)
      .def_ro("variadic", &hxrt::OpArgInfo::variadic);
  nb::class_<hxrt::OpInfo>(
      module, "OpInfo",
      "An op's schema: name, owner (the core or a plugin), summary, how many inputs it "
      "takes (min_inputs, max_inputs: -1 for any) and outputs, their OpArgInfos, its "
      "OpAttrInfos, and the rule its shapes follow.")
      .def_ro("name", &hxrt::OpInfo::name)
      .def_ro("owner", &hxrt::OpInfo::owner)
      .def_ro("summary", &hxrt::OpInfo::summary)
      .def_ro("min_inputs", &hxrt::OpInfo::min_inputs)
      .def_ro("max_inputs", &hxrt::OpInfo::max_inputs)
      .def_ro("num_outputs", &hxrt::OpInfo::num_outputs)
      .def_ro("inputs", &hxrt::OpInfo::inputs)
      .def_ro("outputs", &hxrt::OpInfo::outputs)
      .def_ro("attrs", &hxrt::OpInfo::attrs)
      .def_ro("shape_rule", &hxrt::OpInfo::shape_rule);
  module.def("core_ops", &hxrt::core_ops,
             "The ops the core defines, without kernels; needs no runtime.");
}

}  // namespace

void bind_runtime(nb::module_& module) {
  bind_infos(module);
  nb::class_<hxrt::Op>(module, "Op", "An op looked up once, to call without a lookup by name.")
      .def_prop_ro("name", &hxrt::Op::name);
  nb::class_<ScopeHolder>(module, "DeviceScope", "A device scope, until close().")
      .def("close", &ScopeHolder::close, "Ends the scope.");

  using hxrt::Runtime;
  nb::class_<Runtime>(module, "Runtime", "The C++ runtime: plugins, devices, ops.")
      .def_static("create", &create_runtime, nb::arg("config") = "",
                  nb::arg("plugin_paths") = std::vector<std::string>(),
                  nb::arg("use_installed_plugins") = true, nb::arg("log_level") = nb::none())
      .def("load_report", &Runtime::load_report,
           "Each plugin file tried at start-up: loaded, or why it was skipped.")
      .def("physical_devices", &Runtime::physical_devices)
      .def("devices", &Runtime::devices, nb::call_guard<nb::gil_scoped_release>())
      .def("cluster", &Runtime::cluster,
           "The cluster this process is a task of: ClusterInfo (in_cluster false outside one).")
      .def("ops", &Runtime::ops)
      .def("op", &Runtime::op, nb::arg("name"))
      .def("set_visible_devices", &Runtime::set_visible_devices, nb::arg("physical_devices"))
      .def("set_device_count", &Runtime::set_device_count, nb::arg("type"), nb::arg("count"))
      .def(
          "set_logical_devices",
          [](Runtime& runtime, const std::string& physical,
             const std::vector<std::optional<uint64_t>>& memory_limits_mb) {
            std::vector<hxrt::LogicalDeviceConfig> devices;
            for (const std::optional<uint64_t>& limit : memory_limits_mb) {
              devices.push_back({limit});
            }
            runtime.set_logical_devices(physical, devices);
          },
          nb::arg("physical_device"), nb::arg("memory_limits_mb"))
      .def(
          "set_memory_growth",
          [](Runtime& runtime, const std::string& device, bool growth) {
            hxrt::MemoryPolicy policy;
            policy.growth = growth;
            runtime.set_memory_policy(device, policy);
          },
          nb::arg("device"), nb::arg("growth"))
      .def("initialize", &Runtime::initialize, nb::call_guard<nb::gil_scoped_release>())
      .def_prop_ro("initialized", &Runtime::initialized)
      .def("memory_stats", &memory_stats, nb::arg("device"))
      .def("reset_peak_memory", &Runtime::reset_peak_memory, nb::arg("device"))
      .def(
          "execute",
          [](Runtime& runtime, const hxrt::Op& op, const std::vector<hxrt::Tensor>& inputs,
             nb::handle attrs, const std::string& device) {
            const hxrt::Attrs converted = to_attrs(attrs);
            const nb::gil_scoped_release unlocked;
            return runtime.execute(op, inputs, converted, device);
          },
          nb::arg("op"), nb::arg("inputs"), nb::arg("attrs").none(), nb::arg("device") = "")
      .def(
          "execute_multi",
          [](Runtime& runtime, const hxrt::Op& op, const std::vector<hxrt::Tensor>& inputs,
             nb::handle attrs, const std::string& device) {
            const hxrt::Attrs converted = to_attrs(attrs);
            const nb::gil_scoped_release unlocked;
            return runtime.execute_multi(op, inputs, converted, device);
          },
          nb::arg("op"), nb::arg("inputs"), nb::arg("attrs").none(), nb::arg("device") = "")
      .def("from_host", &from_host, nb::arg("array"), nb::arg("dtype"), nb::arg("device") = "")
      .def("to_device", &Runtime::to_device, nb::arg("tensor"), nb::arg("device"),
           nb::call_guard<nb::gil_scoped_release>())
      .def("synchronize", &Runtime::synchronize, nb::arg("device") = "",
           nb::call_guard<nb::gil_scoped_release>())
      .def(
          "device",
          [](Runtime& runtime, const std::string& name) {
            return ScopeHolder{runtime.device(name)};
          },
          nb::arg("name"))
      .def(
          "set_soft_placement",
          [](Runtime& runtime, bool soft) {
            runtime.set_soft_placement(soft ? hxrt::SoftPlacement::kSoft
                                            : hxrt::SoftPlacement::kStrict);
          },
          nb::arg("soft"))
      .def_prop_ro("soft_placement",
                   [](const Runtime& runtime) {
                     return hxrt::soft_placement_name(runtime.soft_placement());
                   })
      .def("set_placement_function", &set_placement_function, nb::arg("function").none(),
           "Places ops that no call or scope gives a device: function(op) -> device or None; "
           "None clears it.")
      .def("set_log_device_placement", &Runtime::set_log_device_placement, nb::arg("enabled"))
      .def_prop_ro("log_device_placement", &Runtime::log_device_placement)
      .def("start_trace", &Runtime::start_trace, nb::arg("path"))
      .def("stop_trace", &Runtime::stop_trace, nb::call_guard<nb::gil_scoped_release>());
}

}  // namespace hxpy
