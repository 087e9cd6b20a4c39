"""hxrt.load_onnx: a model as a callable, compiled for its feeds' shapes, with its placement."""

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

import hxrt


@pytest.fixture
def layer_model(tmp_path):
    """relu(x @ w + b) of x [N, 8], N left open, as exporters write a linear layer."""
    rng = np.random.default_rng(0)
    w = rng.standard_normal((8, 4)).astype(np.float32)
    b = rng.standard_normal(4).astype(np.float32)
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["product"], name="fc/MatMul"),
         helper.make_node("Add", ["product", "b"], ["sum"], name="fc/Add"),
         helper.make_node("Relu", ["sum"], ["y"], name="fc/Relu")],
        "layer",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 4])],
        [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b")])
    path = tmp_path / "layer.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), path)
    return path, w, b


def test_a_model_runs_for_each_batch_its_feeds_bring(layer_model):
    path, w, b = layer_model
    model = hxrt.load_onnx(path)
    for batch in (3, 5, 3):
        x = np.linspace(-1, 1, batch * 8, dtype=np.float32).reshape(batch, 8)
        y = model(x=x)
        assert y.shape == (batch, 4)
        np.testing.assert_allclose(y.numpy(), np.maximum(x @ w + b, 0), rtol=1e-5, atol=1e-6)
    assert model.inputs == ["x"] and model.output_names == ["y"]


def test_the_placement_summary_shows_the_fused_layer(layer_model):
    model = hxrt.load_onnx(layer_model[0])
    model(x=np.zeros((2, 8), np.float32))
    summary = model.placement_summary()
    assert "device:CPU:0: 1 node (MatMulBias 1)" in summary
    assert "no node fell back" in summary
    assert [p.op for p in model.placement() if p.node == "fc/Relu"] == ["MatMulBias"]


def test_a_model_that_has_not_run_says_so_and_a_bad_file_raises_the_runtimes_error(tmp_path,
                                                                                   layer_model):
    model = hxrt.load_onnx(layer_model[0])
    with pytest.raises(RuntimeError, match="has not run yet"):
        model.placement_summary()
    broken = tmp_path / "broken.onnx"
    broken.write_bytes(b"not a model")
    with pytest.raises(hxrt.errors.OpError, match="broken.onnx"):
        hxrt.load_onnx(broken)(x=np.zeros((1, 8), np.float32))
    with pytest.raises(hxrt.errors.OpError, match="x"):
        hxrt.load_onnx(layer_model[0])(x=np.zeros((1, 7), np.float32))


def test_a_model_is_planned_over_a_described_cluster_without_running(layer_model):
    model = hxrt.load_onnx(layer_model[0], dims={"N": 4})
    topology = {"tasks": [{"count": 64, "devices": [{"like": "/CPU:0"}]}],
                "network": {"gigabytes_per_second": 12.5, "latency_us": 5}}
    plan = model.plan_placement(topology)
    # A small layer is not worth the network: it stays on the first task.
    assert plan.tasks_used == 1
    assert plan.makespan_ms == pytest.approx(plan.one_task_makespan_ms)
    assert {p.device for p in plan.nodes} == {"/job:worker/replica:0/task:0/device:CPU:0"}
    assert "task:0/device:CPU:0: 3 nodes" in plan.summary()
    with pytest.raises(hxrt.errors.OpError, match="/network: missing"):
        model.plan_placement({"tasks": [{"devices": [{"like": "/CPU:0"}]}]})
