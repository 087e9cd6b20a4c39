"""hxrt.function: a Python function traced into a graph once per signature, as tf.function."""

import numpy as np
import pytest

import hxrt


def test_a_traced_layer_computes_what_its_ops_do_eagerly_and_fuses():
    w = hxrt.constant(np.linspace(-1, 1, 12, dtype=np.float32).reshape(4, 3))
    b = hxrt.constant(np.arange(3, dtype=np.float32))
    traced_calls = []

    @hxrt.function
    def layer(x):
        traced_calls.append(x.shape)
        return hxrt.relu(x @ w + b), hxrt.reduce_sum(x, axes=[1], keepdims=False)

    x = np.arange(8, dtype=np.float32).reshape(2, 4) - 3
    y, total = layer(x)
    np.testing.assert_allclose(y.numpy(), np.maximum(x @ w.numpy() + b.numpy(), 0), rtol=1e-6)
    np.testing.assert_allclose(total.numpy(), x.sum(axis=1))
    assert "MatMulBias 1" in layer.executable(x).placement_summary()
    # The same signature runs the graph; a new one traces again.
    layer(x * 2)
    layer(np.zeros((5, 4), np.float32))
    assert traced_calls == [(2, 4), (5, 4)]
    assert layer.__name__ == "layer"


def test_device_scopes_inside_a_traced_function_request_devices_for_its_nodes():
    @hxrt.function
    def scoped(x):
        with hxrt.device("/CPU:0"):
            doubled = x * 2.0
        return doubled - 1.0

    x = hxrt.constant([[1.0, 2.0]])
    np.testing.assert_allclose(scoped(x).numpy(), [[1.0, 3.0]])
    requested = {p.op: p.requested for p in scoped.executable(x).placement()}
    assert requested["Mul"] == "/CPU:0" and requested["Sub"] == ""


def test_errors_of_a_traced_function_name_the_op_at_trace_time():
    @hxrt.function
    def mismatched(x):
        return hxrt.matmul(x, x)

    with pytest.raises(hxrt.errors.InvalidArgumentError, match="MatMul: incompatible shapes"):
        mismatched(np.zeros((2, 3), np.float32))

    @hxrt.function
    def returns_a_string(x):
        return "no"

    with pytest.raises(TypeError, match="a traced function returns tensors"):
        returns_a_string(np.zeros(2, np.float32))


def test_a_function_of_captured_tensors_alone_returns_them_as_constants():
    c = hxrt.constant([1.0, 2.0])

    @hxrt.function(placer="simple")
    def constant_only(x):
        return c + c, x

    doubled, same = constant_only(np.float32(3))
    np.testing.assert_allclose(doubled.numpy(), [2.0, 4.0])
    assert same.numpy() == np.float32(3)
