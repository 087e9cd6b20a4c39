// The collectives (docs/cluster.md, "Collectives and replicas"): AllReduce, ReduceScatter,
// AllGather and Broadcast. Each output is read wherever a replica reads it: in one process the op
// runs on one device and its result is copied to each reader's (TensorFlow's ReductionToOneDevice);
// across the tasks of a cluster it is a collective of MPI's over the tasks (cluster/task_plan.hpp).
#include <algorithm>
#include <array>
#include <climits>
#include <cstdint>

#include "ops/builtin_op_families.hpp"
#include "ops/infer_checks.hpp"

namespace hxrt::detail {
namespace {

constexpr std::array<const char*, 4> kReductions = {"sum", "mean", "max", "min"};

// Every replica's tensor of replica 0's shape: a collective does not broadcast.
void require_one_shape(const InferContext& call) {
  const Shape& first = call.inputs[0].shape;
  for (size_t i = 1; i < call.num_inputs; ++i) {
    if (call.inputs[i].shape != first) {
      reject_call(call, "replica " + std::to_string(i) + "'s tensor has shape " +
                            call.inputs[i].shape.to_string() + " but replica 0's has " +
                            first.to_string() + "; the replicas' tensors need one shape");
    }
  }
}

// The checks AllReduce and ReduceScatter share: numeric replicas of one dtype and shape, and a
// reduction they know.
void require_reducible(const InferContext& call) {
  require_numeric_inputs(call);
  require_same_dtype(call);
  const std::string reduction = attr_string(call, "reduction", "sum");
  bool known = false;
  for (const char* name : kReductions) known = known || reduction == name;
  if (!known) {
    reject_call(call, "reduction \"" + reduction + "\" is none of \"sum\", \"mean\", \"max\", "
                      "\"min\"");
  }
  require_one_shape(call);
}

void infer_all_reduce(const InferContext& call, TensorMeta* outputs) {
  require_reducible(call);
  outputs[0] = call.inputs[0];
}

int reduce_scatter_count(const std::string&, const Attrs&, size_t num_inputs) {
  return static_cast<int>(std::min<size_t>(num_inputs, INT_MAX));
}

void infer_reduce_scatter(const InferContext& call, TensorMeta* outputs) {
  require_reducible(call);
  const Shape& shape = call.inputs[0].shape;
  const auto replicas = static_cast<int64_t>(call.num_inputs);
  if (shape.rank() == 0 || shape[0] % replicas != 0) {
    reject_call(call, "the replicas' tensors have shape " + shape.to_string() +
                          ", whose axis 0 does not split into " + std::to_string(replicas) +
                          " equal shards, one per replica");
  }
  Shape shard = shape;
  shard.set_dim(0, shape[0] / replicas);
  for (size_t i = 0; i < call.num_inputs; ++i) outputs[i] = {call.inputs[0].dtype, shard};
}

void infer_broadcast(const InferContext& call, TensorMeta* outputs) {
  outputs[0] = call.inputs[0];
}

void infer_all_gather(const InferContext& call, TensorMeta* outputs) {
  require_same_dtype(call);
  require_one_shape(call);
  const Shape& first = call.inputs[0].shape;
  const auto replicas = static_cast<int64_t>(call.num_inputs);
  Shape gathered = first;
  if (first.rank() == 0) {
    gathered = Shape{replicas};
  } else {
    if (first[0] > INT64_MAX / replicas) reject_call(call, "the gathered extent overflows");
    gathered.set_dim(0, first[0] * replicas);
  }
  outputs[0] = {call.inputs[0].dtype, gathered};
}

}  // namespace

void add_collective_ops(OpRegistry& registry) {
  OpSchema all_reduce{"AllReduce", 1, -1, 1, infer_all_reduce, ""};
  all_reduce.summary =
      "Reduces one tensor per replica element by element: their sum, mean, maximum or minimum.";
  all_reduce.inputs = {{"replicas", "T", numeric_dtypes(),
                        "one tensor per replica, all of one dtype and shape, each on its "
                        "replica's device (of any task)",
                        true}};
  all_reduce.outputs = {{"reduced", "T", numeric_dtypes(),
                         "their reduction, read by each replica on its own device", false}};
  all_reduce.attrs = {{"reduction", AttrType::kString, false, AttrValue(std::string("sum")),
                       "\"sum\", \"mean\" (the sum over the number of replicas; integer means "
                       "truncate toward zero), \"max\" or \"min\""}};
  all_reduce.shape_rule = "reduced has the replicas' shape. Integer sums wrap modulo 2^bits.";
  all_reduce.reference_cases = all_reduce_cases;
  const std::vector<OpArgInfo> replicas = all_reduce.inputs;
  registry.add(std::move(all_reduce));

  // As many shards as replicas: kMaxOutputs replicas at most (a count past it is refused as
  // any op's outputs past it are).
  OpSchema reduce_scatter{"ReduceScatter", 1, -1, kMaxOutputs, infer_reduce_scatter, ""};
  reduce_scatter.output_count = reduce_scatter_count;
  reduce_scatter.summary =
      "Reduces one tensor per replica element by element and gives replica i the i-th of as "
      "many equal shards of the result along axis 0.";
  reduce_scatter.inputs = replicas;
  reduce_scatter.outputs = {{"shards", "T", numeric_dtypes(),
                             "one per replica, in replica order: its shard of the reduction, "
                             "read on its own device",
                             true}};
  reduce_scatter.attrs = {{"reduction", AttrType::kString, false, AttrValue(std::string("sum")),
                           "as AllReduce's"}};
  reduce_scatter.shape_rule =
      "each shard has the replicas' shape with axis 0 divided by the number of replicas, which "
      "must divide it; at most 64 replicas.";
  reduce_scatter.reference_cases = reduce_scatter_cases;
  registry.add(std::move(reduce_scatter));

  OpSchema all_gather{"AllGather", 1, -1, 1, infer_all_gather, ""};
  all_gather.summary = "Joins one tensor per replica along axis 0, in replica order.";
  all_gather.inputs = {{"replicas", "T", all_dtypes(),
                        "one tensor per replica, all of one dtype and shape, each on its "
                        "replica's device (of any task)",
                        true}};
  all_gather.outputs = {{"gathered", "T", all_dtypes(),
                         "the replicas' tensors one after another, read by each replica on its "
                         "own device",
                         false}};
  all_gather.shape_rule = "gathered has the replicas' shape with axis 0 times the number of "
                          "replicas; replicas of rank 0 give a vector of one element each.";
  all_gather.reference_cases = all_gather_cases;
  registry.add(std::move(all_gather));

  OpSchema broadcast{"Broadcast", 1, 1, 1, infer_broadcast, ""};
  broadcast.summary = "The root replica's tensor, for every replica to read on its device.";
  broadcast.inputs = {{"root", "T", all_dtypes(), "the tensor, on its replica's device", false}};
  broadcast.outputs = {{"value", "T", all_dtypes(),
                        "a copy of it, read by each replica on its own device (of any task)",
                        false}};
  broadcast.shape_rule = "value has root's dtype and shape.";
  broadcast.reference_cases = identity_cases;
  registry.add(std::move(broadcast));
}

}  // namespace hxrt::detail
