// What a Runtime reports of what it loaded: each candidate plugin file (PluginReport), each
// logical device (DeviceInfo) and each registered kernel (KernelInfo). Value types, apart from
// the Runtime facade (hxrt/runtime.hpp) so that the core's lower layers fill them without it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hxrt/dtype.hpp"

namespace hxrt {

// One candidate plugin file and what became of it.
struct PluginReport {
  std::string path;         // the file that was tried
  bool loaded = false;      // false: skipped, and `reason` says why
  std::string reason;       // why it was skipped; empty when loaded
  std::string name;         // the plugin's name, when init got that far
  std::string version;      // the plugin's own version
  std::string abi_version;  // "1.0": the ABI version the plugin speaks
  std::string device_type;  // "CPU", "GPU", ...
  int device_count = 0;
  std::string note;         // for a loaded plugin with no devices, why (e.g. "no CUDA driver")
};

struct DeviceInfo {
  std::string name;        // canonical: "/job:localhost/replica:0/task:0/device:CPU:0"
  std::string short_name;  // "CPU:0"
  std::string type;        // "CPU"
  int id = 0;              // logical id: index among the devices of its type
  std::string physical;    // "GPU:0": the physical device it is (or is cut from)
  std::string memory_policy;  // "growth, limit 1.00 GiB, release unused", as applied
  std::string plugin;      // the plugin that provides it
  std::string product;     // product name, may be empty
  std::string vendor;
  std::string bus_id;
  std::string arch;
  uint64_t memory_total = 0;
  // Read from the plugin when devices() is called; empty when the plugin cannot tell (it has
  // no memory_info, or the call failed: the failure is logged).
  std::optional<uint64_t> memory_free;
  int numa_node = -1;
  int compute_units = 0;
  std::string memory_kind;      // "device", "host-visible" or "host" (hx_memory_kind_name)
  std::string placement_class;  // "discrete accelerator", "host accelerator" or "CPU"
  uint64_t max_allocation = 0;  // the largest single allocation; 0: no smaller than the memory
  uint64_t alignment = 256;     // of every tensor's byte offset the core allocates
  // What its kernels need of a tensor's first element: memory from outside the allocator
  // (Runtime::view_of_host_memory, DLPack) is taken in place at a multiple of it.
  uint64_t min_alignment = 256;
  // The most bytes one kernel reaches through one tensor; 0: no smaller than max_allocation.
  uint64_t max_binding = 0;
  // How its streams wait for another device's work: "in plugin" or "on host" (the core waits).
  std::string cross_device_wait = "in plugin";
  // The task of the cluster it belongs to, as its name begins: "/job:worker/replica:0/task:1"
  // ("/job:localhost/replica:0/task:0" outside a cluster).
  std::string task;
  // Whether it is this process's; a device of another task of the cluster is not, and only
  // the fields of its task's device table are filled (cluster/device_table.hpp).
  bool local = true;
};

struct KernelInfo {
  std::string op;
  std::string device_type;
  std::vector<DType> dtypes;
  int priority = 0;
  std::string plugin;
};

}  // namespace hxrt
