#include "cluster/transport_loader.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>
#include <string>

#include "hxrt/error.hpp"
#include "plugins/core_location.hpp"

namespace hxrt::detail {

bool in_cluster(const ClusterSettings& settings) {
  switch (settings.mode) {
    case ClusterSettings::Mode::kOn:
      return true;
    case ClusterSettings::Mode::kOff:
      return false;
    case ClusterSettings::Mode::kAuto:
      break;
  }
  for (const char* variable : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE"}) {
    if (std::getenv(variable) != nullptr) return true;
  }
  return false;
}

std::shared_ptr<Transport> process_transport(const void* communicator) {
  static std::mutex mutex;
  static std::shared_ptr<Transport> opened;
  static const void* opened_on = nullptr;
  std::lock_guard<std::mutex> lock(mutex);
  if (opened) {
    if (communicator != opened_on) {
      throw Error(StatusCode::kInvalidArgument,
                  "RuntimeOptions::mpi_communicator names another communicator than the one "
                  "this process's first runtime joined its cluster on; every runtime of a "
                  "process is a task of one cluster");
    }
    return opened;
  }
  const std::string path = core_library_dir() + "/hxrt/libhxrt_mpi.so";
  // Global: Open MPI's own components, which it opens in turn, look its symbols up there.
  // Never closed: MPI stays initialised until the process exits.
  void* module = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (module == nullptr) {
    throw Error(StatusCode::kUnavailable,
                "this process is a task of a cluster (started by mpirun, or cluster.enabled is "
                "\"on\"), but the MPI module could not be opened: " + std::string(dlerror()) +
                    "; build hxrt with Open MPI installed (Debian: libopenmpi-dev), or set "
                    "HXRT_CLUSTER=off to run each process alone");
  }
  auto open = reinterpret_cast<OpenTransportFunction>(dlsym(module, kOpenTransportSymbol));
  if (open == nullptr) {
    throw Error(StatusCode::kUnavailable,
                path + " has no " + kOpenTransportSymbol + ": it is not this hxrt's MPI module");
  }
  std::string error;
  Transport* transport = open(&error, communicator);
  if (transport == nullptr) {
    throw Error(StatusCode::kUnavailable, "MPI could not start for the cluster: " + error);
  }
  opened.reset(transport);
  opened_on = communicator;
  return opened;
}

}  // namespace hxrt::detail
