// An executable whose runs are not one compiled graph's but go in stages that it drives:
// a graph with shapes known only at run (RunTimeStages), or one whose nodes run on several
// tasks of a cluster (cluster/task_executable.hpp). Executable::run checks the feeds against
// the declarations here, then hands them to run().
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "graph/executable_impl.hpp"

namespace hxrt::detail {

class StagedRuns {
 public:
  virtual ~StagedRuns() = default;

  // What describes the executable (its placement, memory plan, transfers); nullptr when
  // nothing compiled does yet.
  virtual const std::shared_ptr<const ExecutableImpl>& first() const = 0;
  // The graph inputs the fetches need, in graph order, with their declarations.
  virtual const std::vector<std::string>& inputs() const = 0;
  virtual const std::vector<DType>& input_dtypes() const = 0;
  virtual const std::vector<Shape>& input_shapes() const = 0;
  virtual const std::vector<NodeOutput>& fetches() const = 0;

  // One run, `inputs` in the order of inputs(), checked by the caller. Any thread.
  virtual std::vector<Tensor> run(const std::vector<Tensor>& inputs) const = 0;
};

}  // namespace hxrt::detail
