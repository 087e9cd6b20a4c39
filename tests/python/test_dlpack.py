"""DLPack both ways: a CPU tensor handed to NumPy (or PyTorch) as its own memory, and an array
taken as a tensor without a copy where it is dense and aligned as the CPU's kernels need
(whole elements: hx_device_properties.min_alignment)."""

import gc

import numpy as np
import pytest

import hxrt


def address(array):
    return array.__array_interface__["data"][0]


def test_numpy_reads_a_tensors_own_memory_and_keeps_it_alive():
    tensor = hxrt.constant(np.arange(12, dtype=np.float32).reshape(3, 4) * 0.5)
    view = np.from_dlpack(tensor)
    assert address(view) == address(np.from_dlpack(tensor))
    assert tensor.__dlpack_device__() == (1, 0)
    expected = view.copy()
    del tensor
    gc.collect()
    np.testing.assert_array_equal(view, expected)


def test_an_aligned_dense_array_becomes_a_tensor_of_the_same_memory():
    aligned = np.from_dlpack(hxrt.constant(np.arange(1 << 16, dtype=np.float32)))
    tensor = hxrt.from_dlpack(aligned)
    assert address(np.from_dlpack(tensor)) == address(aligned)
    np.testing.assert_array_equal((tensor + 1.0).numpy(), aligned + 1)
    # A tensor itself has __dlpack__: the same memory again.
    assert address(np.from_dlpack(hxrt.from_dlpack(tensor))) == address(aligned)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, np.int8, np.uint8,
                                   np.int16, np.uint16, np.int32, np.uint32, np.int64,
                                   np.uint64, np.bool_])
def test_every_dtype_numpy_has_crosses_both_ways(dtype):
    values = (np.arange(24).reshape(2, 3, 4) % 3).astype(dtype)
    tensor = hxrt.from_dlpack(values)
    assert tensor.dtype == hxrt.as_dtype(dtype) and tensor.shape == values.shape
    back = np.from_dlpack(tensor)
    assert back.dtype == values.dtype
    np.testing.assert_array_equal(back, values)


def test_numpys_own_arrays_are_taken_in_place():
    # NumPy allocates at 16 bytes, the CPU device at 64; its kernels need whole elements only.
    values = np.arange(1 << 14, dtype=np.float32)
    tensor = hxrt.from_dlpack(values)
    assert address(np.from_dlpack(tensor)) == address(values)
    np.testing.assert_array_equal(hxrt.reduce_sum(tensor, keepdims=False).numpy(), values.sum())


def test_what_cannot_be_taken_in_place_is_copied_unless_copy_is_false():
    # Floats that straddle their 4-byte boundaries.
    unaligned = np.arange(402, dtype=np.uint8)[2:].view(np.float32)
    assert not unaligned.flags.aligned
    copied = hxrt.from_dlpack(unaligned)
    np.testing.assert_array_equal(copied.numpy(), unaligned)
    with pytest.raises(BufferError, match="not a multiple of 4 bytes"):
        hxrt.from_dlpack(unaligned, copy=False)
    strided = np.arange(32, dtype=np.float32).reshape(4, 8)[:, ::2]
    np.testing.assert_array_equal(hxrt.from_dlpack(strided).numpy(), strided)
    with pytest.raises(BufferError, match="not dense and row-major"):
        hxrt.from_dlpack(strided, copy=False)
    dense = np.ones(16, np.float32)
    assert address(np.from_dlpack(hxrt.from_dlpack(dense, copy=True))) != address(dense)


def test_a_tensor_gives_no_copy_and_no_other_device():
    tensor = hxrt.constant([1.0, 2.0])
    with pytest.raises(BufferError, match="no copy"):
        tensor.__dlpack__(copy=True)
    with pytest.raises(BufferError, match="no device but the CPU"):
        tensor.__dlpack__(dl_device=(2, 0))


def test_torch_shares_memory_both_ways():
    torch = pytest.importorskip("torch")
    tensor = hxrt.constant(np.arange(8, dtype=np.float32))
    shared = torch.from_dlpack(tensor)
    assert shared.data_ptr() == address(np.from_dlpack(tensor))
    back = hxrt.from_dlpack(torch.arange(1 << 16, dtype=torch.float32))
    assert back.shape == (1 << 16,)


@pytest.mark.parametrize("dtype_name", ["float32", "float64", "float16", "bfloat16", "int64",
                                        "int32", "int8", "uint8", "bool", "float8_e4m3fn",
                                        "float8_e5m2"])
def test_torch_dtypes_cross_both_ways_without_a_copy(dtype_name):
    torch = pytest.importorskip("torch")
    original = torch.arange(6).to(getattr(torch, dtype_name)).reshape(2, 3)
    tensor = hxrt.from_dlpack(original)
    assert tensor.dtype.name == dtype_name and tensor.shape == (2, 3)
    back = torch.from_dlpack(tensor)
    assert back.dtype == original.dtype and back.data_ptr() == original.data_ptr()
    assert torch.equal(back, original)


def test_a_strided_torch_view_is_copied_dense():
    torch = pytest.importorskip("torch")
    transposed = torch.arange(6.0).reshape(2, 3).t()
    np.testing.assert_array_equal(hxrt.from_dlpack(transposed).numpy(), transposed.numpy())
    with pytest.raises(BufferError, match="not dense"):
        hxrt.from_dlpack(transposed, copy=False)
