// Graphs, ONNX models and executables: Runtime.load_onnx gives a model's graph, Runtime.compile
// places it and plans its memory, Executable.run runs it; plan_placement plans a graph over a
// described cluster. hxrt.load_onnx builds its callable model on these.
#include <map>
#include <string>
#include <vector>

#include <nanobind/stl/map.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bindings.hpp"

namespace hxpy {
namespace {

hxrt::OnnxModel load_onnx(hxrt::Runtime& runtime, const std::string& path,
                          const std::map<std::string, int64_t>& dims,
                          const std::map<std::string, std::vector<int64_t>>& input_shapes) {
  hxrt::OnnxLoadOptions options;
  options.dims = dims;
  for (const auto& [name, extents] : input_shapes) {
    options.input_shapes.emplace(name, hxrt::Shape(extents));
  }
  const nb::gil_scoped_release unlocked;
  return runtime.load_onnx(path, options);
}

hxrt::Executable compile(hxrt::Runtime& runtime, const hxrt::Graph& graph,
                         const std::vector<hxrt::NodeOutput>& fetches, const std::string& placer) {
  hxrt::CompileOptions options;
  if (placer == "dynamic") options.placer = hxrt::GraphPlacer::kDynamic;
  else if (placer == "simple") options.placer = hxrt::GraphPlacer::kSimple;
  else if (!placer.empty()) {
    throw nb::value_error(("placer '" + placer + "': it is 'simple' or 'dynamic'").c_str());
  }
  const nb::gil_scoped_release unlocked;
  return runtime.compile(graph, fetches, options);
}

hxrt::PlacementPlan plan_placement(hxrt::Runtime& runtime, const hxrt::Graph& graph,
                                   const std::vector<hxrt::NodeOutput>& fetches,
                                   const std::string& topology_json) {
  const nb::gil_scoped_release unlocked;
  return runtime.plan_placement(graph, fetches, topology_json);
}

// The dtypes and shapes of a node's outputs, as shape inference gave them when it was added.
nb::list output_meta(const hxrt::GraphBuilder& builder, const std::string& node) {
  const hxrt::GraphNode* found = builder.graph().find(node);
  if (found == nullptr) throw nb::key_error(("no node '" + node + "' in the graph").c_str());
  nb::list outputs;
  for (size_t i = 0; i < found->output_dtypes.size(); ++i) {
    const hxrt::Shape& shape = found->output_shapes[i];
    nb::list extents;
    for (int axis = 0; axis < shape.rank(); ++axis) extents.append(shape[axis]);
    outputs.append(nb::make_tuple(found->output_dtypes[i], nb::tuple(extents)));
  }
  return outputs;
}

}  // namespace

void bind_graphs(nb::module_& module) {
  nb::class_<hxrt::Graph>(module, "Graph", "A graph of ops, built or loaded.")
      .def("inputs", &hxrt::Graph::inputs, "The names of its inputs, in declaration order.");
  nb::class_<hxrt::GraphBuilder>(module, "GraphBuilder",
                                 "Builds a graph node by node, inferring shapes as it goes.")
      .def(nb::init<hxrt::Runtime&>(), nb::arg("runtime"), nb::keep_alive<1, 2>())
      .def(
          "input",
          [](hxrt::GraphBuilder& builder, const std::string& name, hxrt::DType dtype,
             const std::vector<int64_t>& shape) {
            return builder.input(name, dtype, hxrt::Shape(shape));
          },
          nb::arg("name"), nb::arg("dtype"), nb::arg("shape"))
      .def(
          "constant",
          [](hxrt::GraphBuilder& builder, const std::string& name, const hxrt::Tensor& value) {
            return builder.constant(name, value);
          },
          nb::arg("name"), nb::arg("value"))
      .def(
          "add",
          [](hxrt::GraphBuilder& builder, const std::string& name, const std::string& op,
             const std::vector<hxrt::NodeOutput>& inputs, nb::handle attrs,
             const std::string& device) {
            return builder.add(name, op, inputs, to_attrs(attrs), device);
          },
          nb::arg("name"), nb::arg("op"), nb::arg("inputs"), nb::arg("attrs").none(),
          nb::arg("device") = "")
      .def("output_meta", &output_meta, nb::arg("node"),
           "[(dtype, shape)] of each output of the node, as inferred.")
      .def("build", &hxrt::GraphBuilder::build, "The graph built so far.");
  nb::class_<hxrt::NodeOutput>(module, "NodeOutput",
                               "An output of a graph's node: the node's id and the index.")
      .def(nb::init<>())
      .def_rw("node", &hxrt::NodeOutput::node)
      .def_rw("index", &hxrt::NodeOutput::index);
  nb::class_<hxrt::NodePlacement>(
      module, "NodePlacement",
      "Where a compiled graph's node runs: node (its name), op, device, the device it "
      "requested, and the reason when it runs elsewhere.")
      .def_ro("node", &hxrt::NodePlacement::node)
      .def_ro("op", &hxrt::NodePlacement::op)
      .def_ro("device", &hxrt::NodePlacement::device)
      .def_ro("requested", &hxrt::NodePlacement::requested)
      .def_ro("reason", &hxrt::NodePlacement::reason);
  nb::class_<hxrt::PlacementPlan>(
      module, "PlacementPlan",
      "Where the dynamic placer would run a graph's nodes on a described cluster: nodes "
      "(NodePlacement), makespan_ms and one_task_makespan_ms (estimated), tasks_used.")
      .def_ro("nodes", &hxrt::PlacementPlan::nodes)
      .def_ro("makespan_ms", &hxrt::PlacementPlan::makespan_ms)
      .def_ro("one_task_makespan_ms", &hxrt::PlacementPlan::one_task_makespan_ms)
      .def_ro("tasks_used", &hxrt::PlacementPlan::tasks_used)
      .def("summary", &hxrt::PlacementPlan::summary);
  nb::class_<hxrt::OnnxModel>(module, "OnnxModel", "An ONNX model as a graph.")
      .def_ro("graph", &hxrt::OnnxModel::graph)
      .def_ro("inputs", &hxrt::OnnxModel::inputs)
      .def_ro("output_names", &hxrt::OnnxModel::output_names)
      .def_ro("outputs", &hxrt::OnnxModel::outputs)
      .def_ro("opset", &hxrt::OnnxModel::opset)
      .def_ro("producer", &hxrt::OnnxModel::producer);
  nb::class_<hxrt::Executable>(module, "Executable", "A compiled graph: placed, planned.")
      .def(
          "run",
          [](const hxrt::Executable& executable,
             const std::map<std::string, hxrt::Tensor>& feeds) {
            const nb::gil_scoped_release unlocked;
            return executable.run(feeds);
          },
          nb::arg("feeds"))
      .def("inputs", &hxrt::Executable::inputs)
      .def("placement", &hxrt::Executable::placement)
      .def("placement_summary", &hxrt::Executable::placement_summary);
  module.def("load_onnx", &load_onnx, nb::arg("runtime"), nb::arg("path"), nb::arg("dims"),
             nb::arg("input_shapes"));
  module.def("plan_placement", &plan_placement, nb::arg("runtime"), nb::arg("graph"),
             nb::arg("fetches"), nb::arg("topology_json"));
  module.def("compile", &compile, nb::arg("runtime"), nb::arg("graph"), nb::arg("fetches"),
             nb::arg("placer") = "");
}

}  // namespace hxpy
