// The runtime's side of the graph layer: the context its graphs see, and Runtime::compile.
#include "graph/graph_context.hpp"

#include "cluster/task_executable.hpp"
#include "graph/executable_handle.hpp"
#include "graph/staged/run_time_stages.hpp"
#include "runtime/runtime_impl.hpp"

namespace hxrt {

namespace detail {

std::shared_ptr<GraphContext> graph_context_of(const Runtime& runtime) {
  Runtime::Impl& impl = runtime.impl();  // a moved-from Runtime throws here
  // Shares ownership of the whole state, which the context's references point into.
  return std::shared_ptr<GraphContext>(runtime.impl_, &impl.graph_context);
}

}  // namespace detail

Executable Runtime::compile(const Graph& graph, const std::vector<NodeOutput>& fetches,
                            const CompileOptions& options) {
  if (detail::ClusterService* service = impl().cluster_role.service.get()) {
    if (std::unique_ptr<const detail::StagedRuns> across = detail::compile_across_tasks(
            *service, detail::graph_context_of(*this), graph, fetches, options)) {
      return Executable(std::make_shared<detail::ExecutableHandle>(std::move(across)));
    }
  }
  if (detail::has_shapes_at_run(graph, fetches)) {
    return Executable(std::make_shared<detail::ExecutableHandle>(
        std::make_unique<detail::RunTimeStages>(detail::graph_context_of(*this), graph, fetches,
                                                options)));
  }
  std::shared_ptr<detail::ExecutableImpl> compiled =
      detail::compile_graph(detail::graph_context_of(*this), graph, fetches, options, nullptr);
  return Executable(
      std::make_shared<detail::ExecutableHandle>(std::move(compiled), graph, options));
}

}  // namespace hxrt
