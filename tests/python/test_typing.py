"""The package as a type checker and help() see it: its stubs (the extension's from nanobind's
stubgen, the package's with a signature per op function) and a docstring on every public
function, class and method."""

import inspect
import pathlib
import subprocess
import sys
import textwrap

import pytest

import hxrt
import hxrt.config
import hxrt.config.experimental
import hxrt.debugging
import hxrt.errors

PACKAGE = pathlib.Path(hxrt.__file__).parent
PUBLIC_MODULES = [hxrt, hxrt.config, hxrt.config.experimental, hxrt.debugging, hxrt.errors]


def _public(namespace):
    names = getattr(namespace, "__all__", None) or dir(namespace)
    return [(name, getattr(namespace, name)) for name in names if not name.startswith("_")]


def _undocumented():
    missing = []
    for module in PUBLIC_MODULES:
        for name, value in _public(module):
            where = f"{module.__name__}.{name}"
            if inspect.ismodule(value) or not callable(value):
                continue
            if not (value.__doc__ or "").strip():
                missing.append(where)
            if inspect.isclass(value) and not issubclass(value, BaseException):
                for member, attribute in vars(value).items():
                    if member.startswith("_") or not callable(attribute):
                        continue
                    if not (getattr(attribute, "__doc__", None) or "").strip():
                        missing.append(f"{where}.{member}")
    return missing


def test_every_public_function_class_and_method_has_a_docstring():
    assert _undocumented() == []


def test_every_op_function_has_a_docstring_from_its_schema():
    assert "Inputs: a, b." in hxrt.matmul.__doc__
    assert "axes" in hxrt.reduce_mean.__doc__


def test_the_stubs_are_installed_beside_the_package():
    for stub in ("__init__.pyi", "_hxrt.pyi", "py.typed"):
        assert (PACKAGE / stub).is_file(), stub
    extension = (PACKAGE / "_hxrt.pyi").read_text()
    assert "std::" not in extension  # a C++ type with no Python caster leaks into a stub so


def test_the_package_stub_has_a_signature_per_op_function():
    stub = (PACKAGE / "__init__.pyi").read_text()
    for name in hxrt._ops.op_names():
        assert f"\ndef {name}(" in stub, name
    assert ("def gemm(A: TensorLike, B: TensorLike, C: TensorLike = ..., /, *, alpha: float = "
            "..., beta: float = ..., transA: int = ..., transB: int = ..., device: str = \"\") "
            "-> Tensor:") in stub
    assert "def concat(*inputs: TensorLike | Sequence[TensorLike], axis: int," in stub
    assert "-> Tensor | tuple[Tensor, ...]:" in stub.split("def top_k(")[1].split("\n")[0]


def _mypy(tmp_path, code):
    mypy = pytest.importorskip("mypy.api")
    script = tmp_path / "script.py"
    script.write_text(textwrap.dedent(code))
    report, errors, status = mypy.run(
        ["--no-incremental", "--cache-dir", str(tmp_path / "cache"), "--python-executable",
         sys.executable, "--strict", str(script)])
    return status, report + errors


def test_the_package_type_checks_against_its_own_stubs(tmp_path):
    mypy = pytest.importorskip("mypy.api")
    report, errors, status = mypy.run(
        ["--no-incremental", "--cache-dir", str(tmp_path / "cache"), "-p", "hxrt"])
    assert status == 0, report + errors


def test_a_script_using_the_package_type_checks(tmp_path):
    status, report = _mypy(tmp_path, """
        import numpy as np
        import hxrt

        a: hxrt.Tensor = hxrt.constant([[1.0, 2.0], [3.0, 4.0]])
        b = hxrt.matmul(a, np.ones((2, 2), np.float32))
        c = hxrt.reduce_mean(b, axes=[1], keepdims=False, device="/CPU:0")
        parts = hxrt.split(c, num_outputs=2)
        total = hxrt.add_n([a, a, a])
        y: np.ndarray = (c + 1.0).numpy()
        with hxrt.device("/CPU:0"):
            hxrt.cast(a, dtype=hxrt.float16)
        print(b.shape, b.dtype, b.device, parts, total, y)
    """)
    assert status == 0, report


def test_a_wrong_call_is_caught_by_the_type_checker(tmp_path):
    status, report = _mypy(tmp_path, """
        import hxrt

        a = hxrt.constant([1.0, 2.0])
        hxrt.matmul(a, a, transpose=True)
        hxrt.logical_not(a > 1.0)
        hxrt.reduce_mean(a, axes=1)
        hxrt.cast(a)
    """)
    assert status != 0
    assert 'Unexpected keyword argument "transpose" for "matmul"' in report
    assert 'Argument "axes" to "reduce_mean" has incompatible type "int"' in report
    assert 'Missing named argument "dtype" for "cast"' in report
