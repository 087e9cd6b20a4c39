// How a graph with shapes known only at run (GraphNode::shapes_at_run: NonZero and what reads
// it) compiles and runs. Compile cannot plan memory or steps for shapes it does not know, so
// the graph runs in stages, each of which a run's own results decide:
// - a part: the nodes still to run that read no output of an op whose extents are still to
//   come, compiled as any graph (GraphParts) for the shapes of what it reads, and run;
// - then each op with extents at run, or with attributes a run computes (attr_inputs), whose
//   inputs are all computed, run as an eager call (with its node's device request and the
//   attributes read from those values), which gives its outputs their extents;
// and so on until the fetches are computed. Each part's compiled graph is kept, by its place
// in that sequence and the shapes it read, so that runs with the same extents compile
// nothing; the first part, which reads only the graph's inputs and constants, is compiled at
// once, and describes the executable (placement, memory plan, transfers).
#pragma once

#include <algorithm>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "base/tensor_meta.hpp"
#include "graph/executable_impl.hpp"
#include "graph/staged/graph_parts.hpp"
#include "graph/staged/staged_runs.hpp"

namespace hxrt::detail {

// Whether a node the fetches need has shapes known only at run (GraphNode::shapes_at_run):
// the graph then runs in stages. Throws compile's errors for fetches that name no output.
bool has_shapes_at_run(const Graph& graph, const std::vector<NodeOutput>& fetches);

class RunTimeStages final : public StagedRuns {
 public:
  // The most compiled parts kept: a graph whose extents change from run to run compiles
  // each new set, and keeps the latest.
  static constexpr size_t kKeptParts = 64;

  RunTimeStages(std::shared_ptr<GraphContext> context, const Graph& graph,
                std::vector<NodeOutput> fetches, const CompileOptions& options);

  // The first part's compiled graph; nullptr when the graph starts with an op whose extents
  // are known at run, which no compiled part precedes.
  const std::shared_ptr<const ExecutableImpl>& first() const override { return first_; }
  const std::vector<std::string>& inputs() const override { return inputs_; }
  const std::vector<DType>& input_dtypes() const override { return input_dtypes_; }
  const std::vector<Shape>& input_shapes() const override { return input_shapes_; }
  const std::vector<NodeOutput>& fetches() const override { return fetches_; }

  std::vector<Tensor> run(const std::vector<Tensor>& inputs) const override;

 private:
  // What one stage does, from which nodes have run: decided by the graph alone.
  struct StagePlan {
    std::vector<bool> part;     // the nodes of its part (none: no part)
    std::vector<size_t> eager;  // then the nodes that run eagerly (runs_eagerly)
    std::vector<NodeOutput> reads;     // what the part reads of earlier stages
    std::vector<NodeOutput> computes;  // what later stages and the fetches read of the part
    bool has_part() const { return std::find(part.begin(), part.end(), true) != part.end(); }
  };
  using Values = std::map<std::pair<size_t, int>, Tensor>;  // (node, output) -> tensor

  // What has run before a run's first stage: the graph's inputs and constants.
  std::vector<bool> done_at_start() const;
  StagePlan plan_stage(const std::vector<bool>& done) const;
  // The part of `stage` (number `index`) for reads of these dtypes and shapes, compiled now
  // or kept.
  std::shared_ptr<const ExecutableImpl> part_for(size_t index, const StagePlan& stage,
                                                 const std::vector<TensorMeta>& reads) const;
  std::shared_ptr<const ExecutableImpl> compile_part(const StagePlan& stage,
                                                     const std::vector<TensorMeta>& reads) const;
  // Runs `stage`'s eager op `node` on what `values` holds.
  void run_eagerly(size_t node, Values& values) const;
  Tensor value_of(const Values& values, const NodeOutput& output) const;
  // The names of the part's inputs, one per read: the producer's name, or with the output's
  // index ("topk:1"), made unique among the part's names.
  std::vector<std::string> input_names(const StagePlan& stage) const;
  bool is_constant(const std::string& node) const;
  // Whether `node` runs as an eager call between parts: its op's extents are known at run, or
  // its attributes (GraphNode::attr_inputs) are.
  bool runs_eagerly(const GraphNode& node) const;
  // `node`'s attributes with those its attribute inputs give, read from `values`.
  Attrs attrs_computed(const GraphNode& node, const OpSchema& schema, const Values& values) const;

  const std::shared_ptr<GraphContext> context_;
  const Graph graph_;
  const std::vector<NodeOutput> fetches_;
  const CompileOptions options_;
  std::vector<bool> needed_;
  std::vector<size_t> input_nodes_;
  std::vector<std::string> inputs_;
  std::vector<DType> input_dtypes_;
  std::vector<Shape> input_shapes_;
  std::shared_ptr<const ExecutableImpl> first_;

  mutable std::mutex parts_mutex_;  // guards parts_ and part_order_
  mutable std::map<std::string, std::shared_ptr<const ExecutableImpl>> parts_;
  mutable std::deque<std::string> part_order_;  // the keys of parts_, oldest first
};

}  // namespace hxrt::detail
