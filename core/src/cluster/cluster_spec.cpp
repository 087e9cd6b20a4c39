#include "cluster/cluster_spec.hpp"

#include <string>

#include "config/config_sections.hpp"
#include "config/json_checks.hpp"
#include "config/json_pointer.hpp"
#include "config/json_text.hpp"
#include "hxrt/error.hpp"

namespace hxrt::detail {

std::vector<TaskName> tasks_of_ranks(const ClusterSettings& settings, int size,
                                     const std::string& source) {
  std::vector<TaskName> tasks(static_cast<size_t>(size));
  if (settings.jobs.empty()) {
    for (int rank = 0; rank < size; ++rank) tasks[static_cast<size_t>(rank)] = {"worker", rank};
    return tasks;
  }
  std::vector<bool> listed(static_cast<size_t>(size), false);
  for (const auto& [job, ranks] : settings.jobs) {
    for (size_t task = 0; task < ranks.size(); ++task) {
      const int rank = ranks[task];
      if (rank >= size) {
        throw Error(StatusCode::kInvalidArgument,
                    source + ": /cluster/jobs/" + job + "/" + std::to_string(task) +
                        ": rank " + std::to_string(rank) + " is not in this cluster of " +
                        std::to_string(size) + " ranks (0 to " + std::to_string(size - 1) +
                        "); list the ranks mpirun starts (-np " + std::to_string(size) + ")");
      }
      listed[static_cast<size_t>(rank)] = true;
      tasks[static_cast<size_t>(rank)] = {job, static_cast<int>(task)};
    }
  }
  for (int rank = 0; rank < size; ++rank) {
    if (!listed[static_cast<size_t>(rank)]) {
      throw Error(StatusCode::kInvalidArgument,
                  source + ": /cluster/jobs lists no task for rank " + std::to_string(rank) +
                      " of this cluster of " + std::to_string(size) +
                      " ranks; every rank must be a task of one job");
    }
  }
  return tasks;
}

namespace {

constexpr const char* kTfConfig = "environment TF_CONFIG";
constexpr int kMostTasks = 1000000;

}  // namespace

TfConfig read_tf_config(const std::string& text) {
  const nlohmann::json root = parse_json(text, kTfConfig);
  require_object(root, kTfConfig, "");
  // TensorFlow's other keys ("environment", "rpc_layer") say nothing MPI needs.
  const auto cluster = root.find("cluster");
  if (cluster == root.end()) {
    fail(kTfConfig, "/cluster", "missing; expected the cluster spec, as "
                                "{\"worker\": [\"host0:2222\", \"host1:2222\"]}");
  }
  require_object(*cluster, kTfConfig, "/cluster");
  TfConfig read;
  int total = 0;
  for (const auto& job : cluster->items()) {
    const std::string path = pointer_child("/cluster", job.key());
    if (!is_job_name(job.key())) {
      fail(kTfConfig, path, "'" + job.key() + "' is not a job name hxrt can put in a device name "
                            "(lower-case letters, digits and _, starting with a letter)");
    }
    if (!job.value().is_array() || job.value().empty() ||
        job.value().size() > static_cast<size_t>(kMostTasks - total)) {
      fail(kTfConfig, path, "expected a non-empty array of the job's task addresses, got " +
                                type_of(job.value()));
    }
    read.jobs[job.key()] = static_cast<int>(job.value().size());
    total += static_cast<int>(job.value().size());
  }
  if (read.jobs.empty()) fail(kTfConfig, "/cluster", "expected at least one job, got none");
  const auto task = root.find("task");
  if (task == root.end()) return read;
  require_object(*task, kTfConfig, "/task");
  const auto type = task->find("type");
  if (type == task->end() || !type->is_string() || read.jobs.count(type->get<std::string>()) == 0) {
    fail(kTfConfig, "/task/type",
         "expected one of the cluster's jobs, got " +
             (type == task->end() ? std::string("nothing") : type_of(*type)));
  }
  const int tasks = read.jobs.at(type->get<std::string>());
  const auto index = task->find("index");
  const std::optional<int64_t> at =
      index == task->end() ? std::optional<int64_t>(0) : integer_in(*index, 0, tasks - 1);
  if (!at) {
    fail(kTfConfig, "/task/index",
         "expected an index of job '" + type->get<std::string>() + "' (0 to " +
             std::to_string(tasks - 1) + "), got " + type_of(*index));
  }
  read.task = TaskName{type->get<std::string>(), static_cast<int>(*at)};
  return read;
}

std::vector<TaskName> tasks_of_tf_config(const TfConfig& config, int size) {
  std::vector<TaskName> tasks;
  for (const auto& [job, count] : config.jobs) {
    for (int task = 0; task < count; ++task) tasks.push_back({job, task});
  }
  if (tasks.size() != static_cast<size_t>(size)) {
    throw Error(StatusCode::kInvalidArgument,
                std::string(kTfConfig) + ": /cluster lists " + std::to_string(tasks.size()) +
                    " tasks, but this cluster has " + std::to_string(size) +
                    " MPI ranks; start one rank per task (mpirun -np " +
                    std::to_string(tasks.size()) + ")");
  }
  return tasks;
}

void check_tasks_said(const TfConfig& config, const std::vector<TaskName>& tasks) {
  std::map<std::pair<std::string, int>, int> said;  // task -> the first rank that said it
  for (size_t rank = 0; rank < tasks.size(); ++rank) {
    const TaskName& task = tasks[rank];
    auto [first, added] = said.emplace(std::make_pair(task.job, task.task), static_cast<int>(rank));
    if (!added) {
      throw Error(StatusCode::kInvalidArgument,
                  std::string(kTfConfig) + ": ranks " + std::to_string(first->second) + " and " +
                      std::to_string(rank) + " both say they are " + task.prefix() +
                      " in their /task; give each rank the task it is");
    }
  }
  for (const TaskName& task : tasks_of_tf_config(config, static_cast<int>(tasks.size()))) {
    if (said.count({task.job, task.task}) == 0) {
      throw Error(StatusCode::kInvalidArgument,
                  std::string(kTfConfig) + ": no rank says it is " + task.prefix() +
                      " in its /task, and every task of /cluster needs one");
    }
  }
}

}  // namespace hxrt::detail
