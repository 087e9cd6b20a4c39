"""Writes hxrt/__init__.pyi: the package's type stub, with a signature for every op function.

The op functions (hxrt.matmul, ...) are made at run time from the op list, so nanobind's stubgen,
which reads the extension, cannot see them, and a type checker would take each for Any. This
script writes them out from the same list, and takes the rest of the stub from __init__.py
itself (its imports and __all__), so that a name added there needs no edit here.

  python make_package_stub.py PACKAGE_DIR   # a folder with __init__.py and the built _hxrt

Run by python/CMakeLists.txt after the extension is built (and at install time in a wheel).
"""

import ast
import importlib
import keyword
import pathlib
import sys

# How each attribute type of the op list is written in Python.
_ATTR_TYPES = {"int": "int", "float": "float", "bool": "builtins.bool", "string": "str",
               "dtype": "DType | str", "list of ints": "Sequence[int]",
               "list of floats": "Sequence[float]"}

_HEAD = '''"""Type stub of hxrt, written by python/make_package_stub.py: do not edit."""

import builtins
from collections.abc import Sequence
from typing import Any

import numpy.typing

'''


def module_part(init_source):
    """The statements of __init__.py a stub keeps: its imports and __all__."""
    kept = [node for node in ast.parse(init_source).body
            if isinstance(node, (ast.Import, ast.ImportFrom))
            or (isinstance(node, ast.Assign)
                and any(getattr(target, "id", "") == "__all__" for target in node.targets))]
    return "\n".join(ast.unparse(node) for node in kept) + "\n"


def op_signature(info, python_name):
    """One op function's stub: its inputs positional (the trailing optional ones defaulted, a
    variadic one as *args), its attributes by keyword, device=, and what it returns."""
    params = []
    for index, arg in enumerate(info.inputs):
        if arg.variadic:
            params.append(f"*{_parameter(arg.name, index)}: TensorLike | Sequence[TensorLike]")
        else:
            default = " = ..." if index >= info.min_inputs else ""
            params.append(f"{_parameter(arg.name, index)}: TensorLike{default}")
    if params and not info.inputs[-1].variadic:
        params.append("/")
    keywords = [f"{attr.name}: {_ATTR_TYPES.get(attr.type, 'Any')}"
                + ("" if attr.required else " = ...")
                for attr in info.attrs if not keyword.iskeyword(attr.name)]
    if not info.inputs or not info.inputs[-1].variadic:
        keywords.insert(0, "*")  # after *args they are keyword-only already
    keywords.append('device: str = ""')
    if any(keyword.iskeyword(attr.name) for attr in info.attrs):
        keywords.append("**attrs: Any")  # such a name is only ever passed by **{...}
    returns = "Tensor" if info.num_outputs == 1 else "Tensor | tuple[Tensor, ...]"
    summary = (info.summary or f"The op {info.name}.").replace('"""', "'''")
    return (f"def {python_name}({', '.join(params + keywords)}) -> {returns}:\n"
            f'    """{summary}"""\n')


def _parameter(name, index):
    """An input's name as a Python parameter (an ONNX name may be a keyword or not an
    identifier)."""
    return name if name.isidentifier() and not keyword.iskeyword(name) else f"input{index}"


def package_stub(package_dir):
    sys.path.insert(0, str(package_dir.parent))
    hxrt = importlib.import_module(package_dir.name)
    ops = importlib.import_module(f"{package_dir.name}._ops")
    parts = [_HEAD, module_part((package_dir / "__init__.py").read_text()), "\n",
             "TensorLike = Tensor | numpy.typing.ArrayLike\n\n"]
    parts += [f"{dtype.name}: DType\n" for dtype in hxrt.DType]
    parts.append("\n\ndef __getattr__(name: str) -> Any:\n"
                 '    """A plugin\'s custom op, as a function."""\n')
    for info in sorted(hxrt._hxrt.core_ops(), key=lambda info: ops.python_name(info.name)):
        parts.append("\n\n" + op_signature(info, ops.python_name(info.name)))
    return "".join(parts)


def main():
    package_dir = pathlib.Path(sys.argv[1]).resolve()
    (package_dir / "__init__.pyi").write_text(package_stub(package_dir))


if __name__ == "__main__":
    main()
