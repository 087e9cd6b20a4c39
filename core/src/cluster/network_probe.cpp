#include "cluster/network_probe.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "cluster/host_tensors.hpp"
#include "cluster/quiet_context.hpp"
#include "cluster/task_executable.hpp"
#include "graph/staged/graph_parts.hpp"

namespace hxrt::detail {
namespace {

using Clock = std::chrono::steady_clock;

constexpr int64_t kSmallBytes = 16;
constexpr int64_t kLargeBytes = int64_t{1} << 20;

// The fastest of three round trips of `bytes` through an Identity on `peer`'s host, after one
// that compiles and warms.
double round_trip_seconds(ClusterService& service, const std::shared_ptr<GraphContext>& context,
                          int peer, int64_t bytes) {
  GraphNode input;
  input.kind = GraphNode::Kind::kInput;
  input.name = "bytes";
  input.output_dtypes = {DType::kU8};
  input.output_shapes = {Shape{bytes}};
  GraphNode echo;
  echo.kind = GraphNode::Kind::kOp;
  echo.name = "echo";
  echo.op = "Identity";
  echo.inputs = {{"bytes", 0}};
  echo.requested_device = service.cluster().remote_host_name(peer);
  echo.request_source = RequestSource::kNode;
  const Graph graph = GraphParts::assemble({std::move(input), std::move(echo)}, context->ops);
  CompileOptions simple;
  simple.placer = GraphPlacer::kSimple;
  const std::unique_ptr<const StagedRuns> executable = compile_across_tasks(
      service, without_placement_log(context), graph, {{"echo", 0}}, simple);
  Tensor sent = new_host_tensor(host_device(context->devices), DType::kU8, Shape{bytes});
  std::memset(host_bytes(sent), 0, static_cast<size_t>(bytes));
  double best = std::numeric_limits<double>::infinity();
  for (int round = 0; round < 4; ++round) {
    const Clock::time_point start = Clock::now();
    executable->run({sent});
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    if (round > 0) best = std::min(best, seconds);
  }
  return best;
}

}  // namespace

LinkSpeed measure_network(ClusterService& service, const std::shared_ptr<GraphContext>& context,
                          int peer) {
  const double small = round_trip_seconds(service, context, peer, kSmallBytes);
  const double large = round_trip_seconds(service, context, peer, kLargeBytes);
  LinkSpeed speed;
  speed.latency = small / 2;
  // A large trip no slower than a small one (a clock too coarse) leaves the bandwidth at what
  // the clock can tell: the bytes over a microsecond.
  const double extra = std::max(large - small, 1e-6);
  speed.bytes_per_second = 2.0 * static_cast<double>(kLargeBytes - kSmallBytes) / extra;
  return speed;
}

LinkSpeed network_to(ClusterService& service, const std::shared_ptr<GraphContext>& context,
                     int peer) {
  if (const std::optional<ClusterSettings::Network>& given = context->config.cluster.network) {
    return {given->bytes_per_second, given->latency_seconds};
  }
  Cluster& cluster = service.cluster();
  if (std::optional<LinkSpeed> known = cluster.network(peer)) return *known;
  const LinkSpeed measured = measure_network(service, context, peer);
  cluster.set_network(peer, measured);
  context->logger.write(LogLevel::kInfo,
                        "The network to " + cluster.tasks()[static_cast<size_t>(peer)].prefix() +
                            ", measured for the dynamic placer: " +
                            std::to_string(measured.bytes_per_second / 1e9).substr(0, 5) +
                            " GB/s, " + milliseconds_text(measured.latency) + " latency");
  return measured;
}

}  // namespace hxrt::detail
