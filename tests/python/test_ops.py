"""Ops as functions, tensors from and to NumPy, operators, errors as exceptions."""

import ml_dtypes
import numpy as np
import pytest

import hxrt


def test_every_core_op_is_a_function_named_as_tensorflow_names_it():
    names = dir(hxrt)
    for name in ["matmul", "add", "reduce_mean", "layer_normalization", "argmax", "top_k",
                 "add_n", "cumsum", "nonzero", "conv_transpose", "multi_head_attention"]:
        assert name in names
        assert callable(getattr(hxrt, name))
    assert "The op MatMul" in hxrt.matmul.__doc__
    # And, Or, Not: Python keywords, so TensorFlow's names
    np.testing.assert_array_equal(
        hxrt.logical_not(hxrt.logical_and([True, False], [True, True])).numpy(), [False, True])
    assert "and" not in names and "logical_or" in names
    with pytest.raises(AttributeError, match="no op is called so"):
        hxrt.no_such_op


def test_matmul_matches_numpy():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.arange(12, dtype=np.float32).reshape(3, 4)
    c = hxrt.matmul(hxrt.constant(a), hxrt.constant(b))
    assert isinstance(c, hxrt.Tensor)
    assert c.shape == (2, 4) and c.dtype == hxrt.float32
    assert c.device.endswith("device:CPU:0")
    np.testing.assert_allclose(c.numpy(), a @ b)
    # NumPy arrays are accepted wherever a tensor is.
    np.testing.assert_allclose(hxrt.matmul(a, b).numpy(), a @ b)


def test_attributes_by_keyword_and_several_outputs_as_a_tuple():
    x = hxrt.constant([[3.0, 1.0, 2.0], [0.5, 4.0, 1.5]])
    np.testing.assert_allclose(hxrt.reduce_mean(x, axes=[1], keepdims=False).numpy(), [2.0, 2.0])
    # An int for a bool attribute, as ONNX writes it.
    np.testing.assert_allclose(hxrt.reduce_mean(x, axes=[1], keepdims=1).numpy(), [[2.0], [2.0]])
    values, indices = hxrt.top_k(x, k=2)
    np.testing.assert_allclose(values.numpy(), [[3.0, 2.0], [4.0, 1.5]])
    assert indices.dtype == hxrt.int64
    assert hxrt.cast(x, dtype=np.float16).dtype == hxrt.float16
    assert hxrt.cast(x, dtype="bfloat16").dtype == hxrt.bfloat16


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, ml_dtypes.bfloat16,
                                   np.int32, np.int64, np.int8, np.uint8, np.int16, np.uint16,
                                   np.uint32, np.uint64, np.bool_, ml_dtypes.float8_e4m3fn,
                                   ml_dtypes.float8_e5m2])
def test_every_dtype_goes_in_and_out_unchanged(dtype):
    array = (np.arange(12).reshape(3, 4) % 5).astype(dtype)
    tensor = hxrt.constant(array)
    assert tensor.dtype == hxrt.as_dtype(dtype)
    back = tensor.numpy()
    assert back.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(back.view(np.uint8), array.view(np.uint8))


def test_python_values_become_float32_and_int32_as_tf_constant_makes_them():
    assert hxrt.constant(1.5).dtype == hxrt.float32
    assert hxrt.constant([1, 2]).dtype == hxrt.int32
    assert hxrt.constant([True, False]).dtype == hxrt.bool
    assert hxrt.constant(np.float64(1.5)).dtype == hxrt.float64
    assert hxrt.constant([1, 2], dtype="int64").dtype == hxrt.int64
    assert hxrt.constant(np.zeros((0, 3), np.float32)).shape == (0, 3)


def test_operators_run_ops_and_convert_python_values_to_the_tensors_dtype():
    a = hxrt.constant([[1.0, 2.0], [3.0, 4.0]])
    x = a.numpy()
    np.testing.assert_allclose((a + a).numpy(), x + x)
    np.testing.assert_allclose((2 - a).numpy(), 2 - x)
    np.testing.assert_allclose((a * 3).numpy(), x * 3)
    np.testing.assert_allclose((a / 2).numpy(), x / 2)
    np.testing.assert_allclose((a @ a).numpy(), x @ x)
    np.testing.assert_allclose((a ** 2).numpy(), x ** 2)
    np.testing.assert_allclose((-a).numpy(), -x)
    np.testing.assert_array_equal((a < 2.5).numpy(), x < 2.5)
    np.testing.assert_array_equal((a >= 2.0).numpy(), x >= 2.0)
    np.testing.assert_allclose(np.asarray(a), x)
    assert len(a) == 2
    assert "numpy=" in repr(a) and "float32" in repr(a)


def test_errors_are_exceptions_of_their_status_with_hxrts_message():
    a = hxrt.constant([[1.0, 2.0]])
    with pytest.raises(hxrt.errors.InvalidArgumentError,
                       match=r"MatMul: incompatible shapes \[1, 2\] and \[1, 2\]"):
        hxrt.matmul(a, a)
    with pytest.raises(hxrt.errors.OpError):
        hxrt.add(a, hxrt.constant([1, 2]))
    with pytest.raises(hxrt.errors.InvalidArgumentError, match="missing required attribute"):
        hxrt.cast(a)
    with pytest.raises(TypeError, match="attribute 'axes' is a dict"):
        hxrt.reduce_mean(a, axes={})
    with pytest.raises(TypeError, match="no dtype hxrt has"):
        hxrt.constant([1.0], dtype=np.complex64)


def test_an_explicit_runtime_with_its_own_plugins():
    runtime = hxrt.Runtime(use_installed_plugins=False)
    assert runtime.native.physical_devices() == [] or all(
        device.type != "GPU" for device in runtime.native.physical_devices())
    assert any(op.name == "MatMul" for op in runtime.ops())


@pytest.mark.parametrize("key", [0, -1, (slice(None), 1), (Ellipsis, -1), (1, 2, 3),
                                 (slice(1, None), slice(None, None, -1), slice(0, 4, 2)),
                                 slice(None), (slice(-2, None), Ellipsis)])
def test_indexing_by_ints_and_slices_gives_numpys_basic_indexing(key):
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    got = hxrt.constant(x)[key].numpy()
    np.testing.assert_array_equal(got, x[key])
    assert got.shape == x[key].shape


def test_indexing_refuses_what_numpy_refuses():
    t = hxrt.constant(np.zeros((2, 3), np.float32))
    with pytest.raises(IndexError, match="out of bounds for axis 0 of extent 2"):
        t[2]
    with pytest.raises(IndexError, match="too many indices"):
        t[0, 0, 0]
    with pytest.raises(ValueError, match="step cannot be zero"):
        t[::0]
    with pytest.raises(TypeError, match="indexed by ints, slices"):
        t[[0, 1]]
