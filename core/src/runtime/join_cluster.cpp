// Start-up in a cluster: the devices are set up at once, from the config file and the
// environment, as a TensorFlow server's are when it starts, so that every task can tell the
// others its devices; the device setters then refuse, as after any initialisation.
#include <cstdlib>

#include "cluster/transport_loader.hpp"
#include "hxrt/runtime.hpp"
#include "runtime/runtime_impl.hpp"

namespace hxrt {

void Runtime::Impl::join_cluster(const void* communicator) {
  // TensorFlow's cluster spec and task, read where "cluster.jobs" does not say the jobs.
  const char* tf_config = std::getenv("TF_CONFIG");
  cluster = std::make_unique<detail::Cluster>(detail::process_transport(communicator), config,
                                              tf_config != nullptr ? tf_config : "");
  devices.set_task(cluster->task());
  initialize();
  std::vector<DeviceInfo> local;
  for (const auto& device : devices.all()) local.push_back(device->info());
  cluster->exchange_devices(local, *logger);
  // Owned by this state, the service and the remote calls hold its context without owning it.
  const std::shared_ptr<detail::GraphContext> unowned(std::shared_ptr<void>(), &graph_context);
  cluster_role.service = std::make_unique<detail::ClusterService>(*cluster, unowned);
  cluster_role.remote_calls =
      std::make_unique<detail::RemoteCalls>(*cluster_role.service, unowned);
  // Last: the service's thread may use the remote calls from its first request on.
  cluster_role.service->start();
}

ClusterInfo Runtime::cluster() const {
  ClusterInfo info;
  const detail::Cluster* cluster = impl().cluster.get();
  info.in_cluster = cluster != nullptr;
  info.task = impl().devices.task().prefix();
  info.rank = cluster ? cluster->rank() : 0;
  if (cluster == nullptr) {
    info.tasks = {info.task};
    return info;
  }
  for (const detail::TaskName& task : cluster->tasks()) info.tasks.push_back(task.prefix());
  info.mpi_library = cluster->transport().library();
  return info;
}

}  // namespace hxrt
