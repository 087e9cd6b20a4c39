// What a Runtime reports of the cluster its process is a task of (docs/cluster.md): a value
// type, apart from the Runtime facade (hxrt/runtime.hpp).
#pragma once

#include <string>
#include <vector>

namespace hxrt {

struct ClusterInfo {
  // Whether the process is a task of a cluster (started by mpirun, or cluster.enabled "on").
  bool in_cluster = false;
  // This task's name, as its devices' names begin: "/job:worker/replica:0/task:1";
  // "/job:localhost/replica:0/task:0" outside a cluster.
  std::string task;
  int rank = 0;  // its MPI rank
  // Every task's name, in rank order; this one alone outside a cluster.
  std::vector<std::string> tasks;
  // The MPI library the tasks talk through ("Open MPI v4.1.4"); empty outside a cluster.
  std::string mpi_library;
};

}  // namespace hxrt
