#include "cluster/cluster_topology.hpp"

#include <cmath>
#include <map>

#include "config/config_sections.hpp"
#include "config/json_checks.hpp"
#include "config/json_pointer.hpp"
#include "config/json_text.hpp"
#include "graph/compile/compile_phases.hpp"

namespace hxrt::detail {
namespace {

using nlohmann::json;

// Reads one topology: each reader fails with the source and the JSON pointer of the value.
class TopologyReader {
 public:
  TopologyReader(const std::string& source, const DeviceManager& devices)
      : source_(source), devices_(devices) {}

  ClusterTopology read(const json& root) {
    require_object(root, source_, "");
    check_keys(root, {"job", "tasks", "network"}, source_, "");
    std::string job = "worker";
    if (root.contains("job")) job = job_name(root["job"], "/job");
    const json& tasks = required(root, "tasks", "", "an array of task groups");
    if (!tasks.is_array() || tasks.empty()) {
      fail(source_, "/tasks", "expected a non-empty array of task groups, got " +
                                  type_of(tasks));
    }
    for (size_t group = 0; group < tasks.size(); ++group) {
      read_task_group(tasks[group], pointer_child("/tasks", group), job);
    }
    read_network(required(root, "network", "", "an object"), "/network");
    return std::move(topology_);
  }

 private:
  const json& required(const json& object, const char* key, const std::string& path,
                       const char* expected) const {
    auto found = object.find(key);
    if (found == object.end()) {
      fail(source_, pointer_child(path, key), std::string("missing; expected ") + expected);
    }
    return *found;
  }

  std::string job_name(const json& value, const std::string& path) const {
    if (!value.is_string() || !is_job_name(value.get<std::string>())) {
      fail(source_, path, "expected a job name (lower-case letters, digits and _, starting with "
                          "a letter, at most 64), got " + type_of(value));
    }
    return value.get<std::string>();
  }

  int64_t count(const json& object, const std::string& path) const {
    if (!object.contains("count")) return 1;
    const std::optional<int64_t> n =
        integer_in(object["count"], 1, static_cast<int64_t>(kMaxTopologyDevices));
    if (!n) {
      fail(source_, pointer_child(path, "count"),
           "expected an integer from 1 to " + std::to_string(kMaxTopologyDevices) + ", got " +
               type_of(object["count"]));
    }
    return *n;
  }

  double positive(const json& value, const std::string& path) const {
    if (!value.is_number() || !std::isfinite(value.get<double>()) || value.get<double>() <= 0) {
      fail(source_, path, "expected a number > 0, got " + type_of(value));
    }
    return value.get<double>();
  }

  void read_task_group(const json& group, const std::string& path, const std::string& job) {
    require_object(group, source_, path);
    check_keys(group, {"count", "devices"}, source_, path);
    const int64_t tasks = count(group, path);
    const json& devices = required(group, "devices", path, "an array of devices");
    if (!devices.is_array() || devices.empty()) {
      fail(source_, pointer_child(path, "devices"),
           "expected a non-empty array of devices, got " + type_of(devices));
    }
    for (int64_t t = 0; t < tasks; ++t) {
      TaskName task{job, static_cast<int>(topology_.tasks.size())};
      topology_.tasks.push_back(task);
      std::map<std::string, int> of_type;  // how many of each type the task has so far
      for (size_t d = 0; d < devices.size(); ++d) {
        add_devices(devices[d], pointer_child(pointer_child(path, "devices"), d), task,
                    of_type);
      }
    }
  }

  void add_devices(const json& entry, const std::string& path, const TaskName& task,
                   std::map<std::string, int>& of_type) {
    require_object(entry, source_, path);
    check_keys(entry, {"like", "count", "speed", "memory_mb"}, source_, path);
    Device* like = like_device(required(entry, "like", path, "a device name"),
                               pointer_child(path, "like"));
    const int64_t n = count(entry, path);
    const double speed =
        entry.contains("speed") ? positive(entry["speed"], pointer_child(path, "speed")) : 1;
    uint64_t memory = device_memory_limit(*like);
    if (entry.contains("memory_mb")) {
      const std::optional<int64_t> mb = integer_in(entry["memory_mb"], 1, int64_t{1} << 40);
      if (!mb) {
        fail(source_, pointer_child(path, "memory_mb"),
             "expected an integer of MiB from 1 to 2^40, got " + type_of(entry["memory_mb"]));
      }
      memory = static_cast<uint64_t>(*mb) << 20;
    }
    for (int64_t i = 0; i < n; ++i) {
      if (topology_.devices.size() == kMaxTopologyDevices) {
        fail(source_, path, "the topology has more than " +
                                std::to_string(kMaxTopologyDevices) +
                                " devices in all, the most a plan takes");
      }
      TopologyDevice device;
      device.task = topology_.tasks.size() - 1;
      device.type = like->type();
      device.index = of_type[device.type]++;
      device.name = canonical_device_name(task, device.type, device.index);
      device.short_name = "task:" + std::to_string(task.task) + "/" +
                          short_device_name(device.type, device.index);
      device.like = like;
      device.speed = speed;
      device.memory_bytes = memory;
      topology_.devices.push_back(std::move(device));
    }
  }

  Device* like_device(const json& value, const std::string& path) const {
    if (!value.is_string()) fail(source_, path, "expected a device name, got " + type_of(value));
    DeviceSpec spec;
    try {
      spec = parse_device_name(value.get<std::string>());
    } catch (const Error& e) {
      fail(source_, path, e.what());
    }
    const std::vector<Device*> matching = devices_.matching(spec);
    if (matching.empty()) {
      fail(source_, path, "names no device of this process: \"like\" takes one whose kernels "
                          "and speed the task's device has. " + devices_.describe_for(spec));
    }
    return matching.front();
  }

  void read_network(const json& network, const std::string& path) {
    require_object(network, source_, path);
    check_keys(network, {"gigabytes_per_second", "latency_us"}, source_, path);
    topology_.network.bytes_per_second =
        positive(required(network, "gigabytes_per_second", path, "a number > 0"),
                 pointer_child(path, "gigabytes_per_second")) * 1e9;
    const json& latency = required(network, "latency_us", path, "a number >= 0");
    if (!latency.is_number() || !std::isfinite(latency.get<double>()) ||
        latency.get<double>() < 0) {
      fail(source_, pointer_child(path, "latency_us"),
           "expected a number >= 0, got " + type_of(latency));
    }
    topology_.network.latency = latency.get<double>() * 1e-6;
  }

  const std::string& source_;
  const DeviceManager& devices_;
  ClusterTopology topology_;
};

}  // namespace

ClusterTopology topology_from_json(const std::string& text, const std::string& source,
                                   const DeviceManager& devices) {
  return TopologyReader(source, devices).read(parse_json(text, source));
}

ClusterTopology topology_of_cluster(const Cluster& cluster, const DeviceManager& devices,
                                    const LinkSpeed& network) {
  ClusterTopology topology;
  topology.tasks = cluster.tasks();
  topology.network = network;
  bool one_job = true;
  for (const TaskName& task : topology.tasks) {
    one_job = one_job && task.job == topology.tasks[0].job;
  }
  Device* host = nullptr;
  for (const std::shared_ptr<Device>& device : devices.all()) {
    if (host == nullptr && device->host_writable()) host = device.get();
  }
  const auto like_of = [&](const DeviceInfo& remote) -> Device* {
    Device* same_type = nullptr;
    for (const std::shared_ptr<Device>& device : devices.all()) {
      if (device->type() != remote.type) continue;
      if (device->plugin().name() == remote.plugin) return device.get();
      if (same_type == nullptr) same_type = device.get();
    }
    return same_type != nullptr ? same_type : host != nullptr ? host : devices.all().front().get();
  };
  const auto add = [&](size_t task, const std::string& name, const std::string& type, int index,
                       Device* like, uint64_t memory) {
    TopologyDevice device;
    device.name = name;
    const TaskName& of = topology.tasks[task];
    device.short_name = (one_job ? "" : of.job + "/") + "task:" + std::to_string(of.task) + "/" +
                        short_device_name(type, index);
    device.task = task;
    device.type = type;
    device.index = index;
    device.like = like;
    device.memory_bytes = memory;
    topology.devices.push_back(std::move(device));
  };
  for (size_t task = 0; task < topology.tasks.size(); ++task) {
    if (static_cast<int>(task) == cluster.rank()) {
      for (const std::shared_ptr<Device>& device : devices.all()) {
        add(task, device->name(), device->type(), device->id(), device.get(),
            device_memory_limit(*device));
      }
      continue;
    }
    const std::string prefix = topology.tasks[task].prefix();
    for (const DeviceInfo& remote : cluster.remote_devices()) {
      if (remote.task != prefix) continue;
      Device* like = like_of(remote);
      add(task, remote.name, remote.type, remote.id, like,
          remote.memory_total > 0 ? remote.memory_total : device_memory_limit(*like));
    }
  }
  return topology;
}

bool topology_admits(const ClusterTopology& topology, const TopologyDevice& device,
                     const DeviceSpec& spec) {
  return topology.tasks[device.task].admits(spec) &&
         (spec.type.empty() || spec.type == device.type) &&
         (spec.index < 0 || spec.index == device.index);
}

}  // namespace hxrt::detail
