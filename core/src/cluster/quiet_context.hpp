// The graph context a task's parts compile in: the runtime's, but with the placement log off,
// as each part is only a piece of the placement that the client logs whole.
#pragma once

#include <atomic>
#include <memory>
#include <utility>

#include "graph/graph_context.hpp"

namespace hxrt::detail {

class QuietContext {
 public:
  explicit QuietContext(std::shared_ptr<GraphContext> runtime)
      : runtime_(std::move(runtime)),
        context_{runtime_->eager,          runtime_->config,          runtime_->logger,
                 runtime_->ops,            runtime_->kernels,         runtime_->devices,
                 runtime_->placer,         runtime_->cost_model,      runtime_->calibration_mutex,
                 runtime_->event_waiter,   runtime_->inter_op_pool,   off_,
                 runtime_->soft_placement} {}
  GraphContext& context() { return context_; }

 private:
  std::shared_ptr<GraphContext> runtime_;  // kept alive, as the context it stands for was
  std::atomic<bool> off_{false};
  GraphContext context_;
};

inline std::shared_ptr<GraphContext> without_placement_log(std::shared_ptr<GraphContext> runtime) {
  auto quiet = std::make_shared<QuietContext>(std::move(runtime));
  return std::shared_ptr<GraphContext>(quiet, &quiet->context());
}

}  // namespace hxrt::detail
