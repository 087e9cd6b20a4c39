// AllReduce: the reduction of one tensor per replica (docs/cluster.md, "Collectives"). Its
// output is read wherever a replica reads it: in one process the tensors are reduced on one
// device and the result copied to each reader's (TensorFlow's ReductionToOneDevice); across the
// tasks of a cluster, each task reduces its own and MPI_Allreduce the tasks' results
// (cluster/task_plan.hpp).
#include <array>

#include "ops/builtin_op_families.hpp"
#include "ops/infer_checks.hpp"

namespace hxrt::detail {
namespace {

constexpr std::array<const char*, 4> kReductions = {"sum", "mean", "max", "min"};

void infer_all_reduce(const InferContext& call, TensorMeta* outputs) {
  require_numeric_inputs(call);
  require_same_dtype(call);
  const std::string reduction = attr_string(call, "reduction", "sum");
  bool known = false;
  for (const char* name : kReductions) known = known || reduction == name;
  if (!known) {
    reject_call(call, "reduction \"" + reduction + "\" is none of \"sum\", \"mean\", \"max\", "
                      "\"min\"");
  }
  const Shape& first = call.inputs[0].shape;
  for (size_t i = 1; i < call.num_inputs; ++i) {
    if (call.inputs[i].shape != first) {
      reject_call(call, "replica " + std::to_string(i) + "'s tensor has shape " +
                            call.inputs[i].shape.to_string() + " but replica 0's has " +
                            first.to_string() + "; AllReduce needs one shape");
    }
  }
  outputs[0] = call.inputs[0];
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
  registry.add(std::move(all_reduce));
}

}  // namespace hxrt::detail
