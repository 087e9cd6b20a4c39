#include "cluster/cluster_spec.hpp"

#include <string>

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

}  // namespace hxrt::detail
