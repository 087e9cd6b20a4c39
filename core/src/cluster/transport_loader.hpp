// Whether this process is a task of a cluster, and MPI opened for it when it is.
#pragma once

#include <memory>

#include "cluster/transport.hpp"
#include "config/config.hpp"

namespace hxrt::detail {

// "cluster.enabled": on, off, or (auto) whether an MPI launcher started the process: Open
// MPI's mpirun sets OMPI_COMM_WORLD_SIZE, PMIx-based launchers PMIX_RANK, Hydra and Slurm's
// PMI PMI_SIZE.
bool in_cluster(const ClusterSettings& settings);

// The process's MPI, opened once (MPI can be initialised once per process) from
// libhxrt_mpi.so beside the core (lib/hxrt/), and shared by every runtime of the process, on
// `communicator` (RuntimeOptions::mpi_communicator; nullptr: MPI_COMM_WORLD).
// Error(kUnavailable) saying what to do when the module is missing (hxrt built without
// MPI) or MPI cannot start; Error(kInvalidArgument) for another communicator than the one the
// transport was opened on.
std::shared_ptr<Transport> process_transport(const void* communicator);

}  // namespace hxrt::detail
