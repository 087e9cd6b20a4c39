// TensorFlow's tf.distribute.MirroredStrategy for graphs (docs/cluster.md, "Replicas"): one
// computation built once per device of a list, the devices of this task or of any task of a
// cluster, and each of its results reduced over the replicas with AllReduce. In one process
// the replicas' results are reduced on one device and copied to each reader's; across tasks,
// each task reduces its replicas' and MPI the tasks'.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "hxrt/export.hpp"
#include "hxrt/graph.hpp"

namespace hxrt {

class Runtime;

class HXRT_API MirroredStrategy {
 public:
  // One replica as its computation is built: its index, its device, and the prefix its nodes'
  // names take to stay apart from the other replicas' ("replica_2/").
  struct Replica {
    int index = 0;
    std::string device;
    std::string prefix;
  };
  // Builds one replica's computation with `builder`, in a device scope of the replica's device,
  // and returns its results; every replica returns as many, of one dtype and shape each.
  using ReplicaFunction = std::function<std::vector<NodeOutput>(GraphBuilder& builder,
                                                                const Replica& replica)>;

  // Replicas on `devices` (names, of any task), or by default on every GPU of every task
  // (Runtime::devices()), or where there is none, on each task's first CPU. The runtime must
  // outlive the strategy. Error(kInvalidArgument) for a name no device has, or no device.
  explicit MirroredStrategy(Runtime& runtime, std::vector<std::string> devices = {});

  // The replicas' devices, canonical names.
  const std::vector<std::string>& devices() const { return devices_; }
  int num_replicas_in_sync() const { return static_cast<int>(devices_.size()); }

  // TensorFlow's strategy.run, then strategy.reduce of every result: `function` built once per
  // replica into `builder`, then per result an AllReduce of the replicas' named `name`
  // (name_1, name_2, ... for the results after the first) with `reduction` ("sum", "mean",
  // "max" or "min"). Returns the reduced results. Error(kInvalidArgument) when the replicas
  // return different numbers of results, or GraphBuilder's errors naming the node.
  std::vector<NodeOutput> reduce(GraphBuilder& builder, const ReplicaFunction& function,
                                 const std::string& reduction = "sum",
                                 const std::string& name = "reduced") const;

 private:
  Runtime& runtime_;
  std::vector<std::string> devices_;
};

}  // namespace hxrt
