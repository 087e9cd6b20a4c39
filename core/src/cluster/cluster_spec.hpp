// Which task of which job each MPI rank is: "cluster.jobs" laid over the ranks there are.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/device_name.hpp"
#include "config/config.hpp"

namespace hxrt::detail {

// One TaskName per rank of a cluster of `size` ranks, in rank order. Without "cluster.jobs",
// rank r is /job:worker/replica:0/task:r. With them, every rank 0 to size - 1 must be listed
// once: Error(kInvalidArgument) naming `source` and the rank missing or out of range.
std::vector<TaskName> tasks_of_ranks(const ClusterSettings& settings, int size,
                                     const std::string& source);

// TensorFlow's TF_CONFIG, {"cluster": {"chief": ["host0:2222"], "worker": ["host1:2222"]},
// "task": {"type": "worker", "index": 0}}: its jobs with how many tasks each (the addresses are
// MPI's business here: only their number counts), and this process's task where "task" says.
struct TfConfig {
  std::map<std::string, int> jobs;
  std::optional<TaskName> task;
};

// Error(kInvalidArgument) "environment TF_CONFIG: <JSON pointer>: ..." for text that is not
// such an object, a job name hxrt cannot put in a device name, or a task outside the cluster.
TfConfig read_tf_config(const std::string& text);

// The tasks of `size` ranks as TF_CONFIG's cluster lays them out: its jobs in name order, each
// job's tasks in index order. Error(kInvalidArgument) when it lists another number of tasks.
std::vector<TaskName> tasks_of_tf_config(const TfConfig& config, int size);

// The tasks each rank said it is (its TF_CONFIG's "task"), checked: every task of the cluster
// once. Error(kInvalidArgument) naming the ranks that said one task, or the task none said.
void check_tasks_said(const TfConfig& config, const std::vector<TaskName>& tasks);

}  // namespace hxrt::detail
