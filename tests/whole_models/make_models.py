#!/usr/bin/env python3
"""Three whole models as torch.onnx.export writes them, with inputs and ONNX Runtime's outputs.

PyPI's torch is its CUDA build (gigabytes), too heavy for a test, so the models are written here
with onnx.helper, node for node in the patterns torch.onnx.export (opset 17, eval mode) emits
for the modules named, with torch's naming ("/fc1/Gemm", "/fc1/Gemm_output_0", "fc1.weight",
"onnx::MatMul_101" for a weight the exporter transposed) and seeded weights drawn as torch's
default initialisation draws them (uniform within 1/sqrt(fan_in)):

  mlp          nn.Linear 784-512-512-10 with ReLU between: Gemm (alpha, beta, transB=1) + Relu,
               the batch dimension symbolic ('batch', torch's dynamic_axes)
  cnn          Conv(3->16, 3x3, pad 1) BatchNorm ReLU MaxPool(2), Conv(16->32, 3x3, stride 2,
               pad 1) BatchNorm ReLU, AdaptiveAvgPool2d(1), flatten(1), Linear(32->10),
               softmax(1); the batch fixed by the example input (no dynamic_axes). torch's
               default export folds an eval-mode BatchNorm into the Conv before it; this is the
               form it writes with training=TrainingMode.PRESERVE: BatchNormalization with
               epsilon 1e-5, momentum 0.9, training_mode 0
  transformer  a hand-written pre-norm encoder (2 layers, d 64, 4 heads, MLP 128, vocab 100):
               int64 ids (batch, seq) -> Gather embedding + a learned positional table sliced
               to seq (Shape -> Gather -> Unsqueeze -> Slice); per layer LayerNormalization,
               Q/K/V as MatMul + Add(bias, .), view to heads through the Shape -> Gather ->
               Unsqueeze -> Concat chain a dynamic view exports as, Transpose, MatMul QK^T, Div
               by sqrt(d_head), Softmax, MatMul V, Transpose, reshape back (the same chain),
               output MatMul + Add, residual Add, LayerNormalization, MLP with GELU as opset 17
               exports it (Div by sqrt(2), Erf, Add 1, Mul x, Mul 0.5), residual Add
  transformer16  the transformer as opset 16 exports it: each LayerNormalization as the chain
               of ReduceMean, Sub, Pow, ReduceMean, Add, Sqrt, Div, Mul, Add

For each model named, writes under OUT_DIR/<model>/: model.onnx, inputs/<input>.npy (seeded)
and expected/<output>.npy (ONNX Runtime's outputs for those inputs). bench/onnx_models.py
imports the builders from here, so each model is written once.

  make_models.py OUT_DIR [--models mlp cnn transformer transformer16]
"""
import argparse
import itertools
import math
import pathlib

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 17
MLP_SIZES = [784, 512, 512, 10]
VOCAB, D_MODEL, HEADS, D_MLP, LAYERS, MAX_POSITIONS = 100, 64, 4, 128, 2, 64


class TorchStyleGraph:
    """Nodes, initializers and names as torch.onnx.export gives them."""

    def __init__(self, seed, opset=OPSET):
        self.opset = opset
        self.random = np.random.default_rng(seed)
        self.nodes, self.initializers = [], []
        self.taken = {}
        self.exporter_ids = itertools.count(101)  # torch's "onnx::MatMul_<n>" numbering

    def node(self, scope, op, inputs, output=None, **attributes):
        """Adds '<scope>/<op>' (then '_1', '_2', ...) and returns its output's name."""
        base = f"{scope}/{op}"
        count = self.taken.get(base, 0)
        self.taken[base] = count + 1
        name = base if count == 0 else f"{base}_{count}"
        output = output or f"{name}_output_0"
        self.nodes.append(helper.make_node(op, inputs, [output], name=name, **attributes))
        return output

    def constant(self, scope, value, dtype):
        """A Constant node, as the exporter writes Python numbers and lists of the forward."""
        tensor = numpy_helper.from_array(np.array(value, dtype=dtype))
        return self.node(scope, "Constant", [], value=tensor)

    def parameter(self, name, array):
        self.initializers.append(numpy_helper.from_array(array.astype(np.float32), name))
        return name

    def uniform(self, bound, shape):
        return self.random.uniform(-bound, bound, shape).astype(np.float32)

    def linear_parameters(self, inputs, outputs):
        """nn.Linear's weight [outputs, inputs] and bias, torch's default initialisation."""
        bound = 1 / math.sqrt(inputs)
        return self.uniform(bound, (outputs, inputs)), self.uniform(bound, outputs)

    def gemm(self, module, x, inputs, outputs, output=None):
        """nn.Linear on a matrix: the exporter fuses addmm's transpose into Gemm's transB."""
        weight, bias = self.linear_parameters(inputs, outputs)
        return self.node(f"/{module}", "Gemm",
                         [x, self.parameter(f"{module}.weight", weight),
                          self.parameter(f"{module}.bias", bias)],
                         output, alpha=1.0, beta=1.0, transB=1)

    def matmul_add(self, module, x, inputs, outputs):
        """nn.Linear on a rank-3 input: MatMul by the weight transposed at export, then
        Add(bias, product), the bias first as the exporter writes it."""
        weight, bias = self.linear_parameters(inputs, outputs)
        transposed = self.parameter(f"onnx::MatMul_{next(self.exporter_ids)}", weight.T.copy())
        product = self.node(f"/{module}", "MatMul", [x, transposed])
        return self.node(f"/{module}", "Add", [self.parameter(f"{module}.bias", bias), product])

    def model(self, name, inputs, outputs):
        graph = helper.make_graph(self.nodes, name, inputs, outputs, self.initializers)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", self.opset)],
                                  producer_name="make_models.py")
        onnx.checker.check_model(model, full_check=True)
        return model


def mlp_model(seed=0):
    g = TorchStyleGraph(seed)
    x = "x"
    layers = len(MLP_SIZES) - 1
    for layer, (inputs, outputs) in enumerate(zip(MLP_SIZES, MLP_SIZES[1:]), start=1):
        last = layer == layers
        x = g.gemm(f"fc{layer}", x, inputs, outputs, "y" if last else None)
        if not last:
            x = g.node(f"/relu{layer}", "Relu", [x])
    return g.model("mlp",
                   [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 784])],
                   [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 10])])


def conv_bn_relu(g, index, x, in_channels, out_channels, stride):
    """nn.Conv2d(3x3, padding 1) + nn.BatchNorm2d + nn.ReLU, with running statistics as a
    trained model has them (torch's defaults, mean 0 and variance 1, would make BN a no-op)."""
    bound = 1 / math.sqrt(in_channels * 9)
    conv, bn = f"conv{index}", f"bn{index}"
    weight = g.parameter(f"{conv}.weight", g.uniform(bound, (out_channels, in_channels, 3, 3)))
    bias = g.parameter(f"{conv}.bias", g.uniform(bound, out_channels))
    x = g.node(f"/{conv}", "Conv", [x, weight, bias], dilations=[1, 1], group=1,
               kernel_shape=[3, 3], pads=[1, 1, 1, 1], strides=[stride, stride])
    statistics = [
        g.parameter(f"{bn}.weight", g.random.uniform(0.5, 1.5, out_channels)),
        g.parameter(f"{bn}.bias", g.random.uniform(-0.2, 0.2, out_channels)),
        g.parameter(f"{bn}.running_mean", g.random.uniform(-0.2, 0.2, out_channels)),
        g.parameter(f"{bn}.running_var", g.random.uniform(0.5, 1.5, out_channels)),
    ]
    x = g.node(f"/{bn}", "BatchNormalization", [x] + statistics, epsilon=1e-5,
               momentum=0.9, training_mode=0)
    return g.node(f"/relu{index}", "Relu", [x])


def cnn_model(batch=1, seed=0):
    g = TorchStyleGraph(seed)
    x = conv_bn_relu(g, 1, "x", 3, 16, stride=1)
    x = g.node("/pool", "MaxPool", [x], ceil_mode=0, kernel_shape=[2, 2], pads=[0, 0, 0, 0],
               strides=[2, 2])
    x = conv_bn_relu(g, 2, x, 16, 32, stride=2)
    x = g.node("/avgpool", "GlobalAveragePool", [x])
    x = g.node("", "Flatten", [x], axis=1)
    x = g.gemm("fc", x, 32, 10)
    g.node("", "Softmax", [x], "probs", axis=1)
    return g.model("cnn",
                   [helper.make_tensor_value_info("x", TensorProto.FLOAT, [batch, 3, 32, 32])],
                   [helper.make_tensor_value_info("probs", TensorProto.FLOAT, [batch, 10])])


def dimension(g, scope, shape, axis):
    """x.shape[axis] of a traced forward: Gather of Shape by a Constant index, then Unsqueeze
    to [1] where it goes into a list (a view's shape, a slice's end)."""
    index = g.constant(scope, axis, np.int64)
    extent = g.node(scope, "Gather", [shape, index], axis=0)
    return g.node(scope, "Unsqueeze", [extent, g.constant(scope, [0], np.int64)])


def dynamic_view(g, scope, x, batch, seq, tail):
    """x.view(b, s, *tail) with b and s read from a shape: Concat of the unsqueezed extents and
    Constant [n] per Python int, then Reshape (allowzero 0, as opset 14+ exports it)."""
    parts = [batch, seq] + [g.constant(scope, [n], np.int64) for n in tail]
    shape = g.node(scope, "Concat", parts, axis=0)
    return g.node(scope, "Reshape", [x, shape], allowzero=0)


def gelu(g, scope, x):
    """F.gelu (approximate='none') as opset 17 exports it: x * (1 + erf(x / sqrt 2)) * 0.5."""
    scaled = g.node(scope, "Div", [x, g.constant(scope, math.sqrt(2), np.float32)])
    erf = g.node(scope, "Erf", [scaled])
    plus_one = g.node(scope, "Add", [erf, g.constant(scope, 1.0, np.float32)])
    product = g.node(scope, "Mul", [x, plus_one])
    return g.node(scope, "Mul", [product, g.constant(scope, 0.5, np.float32)])


def layer_norm(g, module, x):
    """nn.LayerNorm: one LayerNormalization from opset 17; before it, the chain the exporter
    writes (ReduceMean, Sub, Pow 2, ReduceMean, Add eps, Sqrt, Div, Mul weight, Add bias)."""
    weight = g.parameter(f"{module}.weight", g.random.uniform(0.8, 1.2, D_MODEL))
    bias = g.parameter(f"{module}.bias", g.random.uniform(-0.1, 0.1, D_MODEL))
    scope = f"/{module}"
    if g.opset >= 17:
        return g.node(scope, "LayerNormalization", [x, weight, bias], axis=-1, epsilon=1e-5)
    mean = g.node(scope, "ReduceMean", [x], axes=[-1])
    centred = g.node(scope, "Sub", [x, mean])
    squared = g.node(scope, "Pow", [centred, g.constant(scope, 2.0, np.float32)])
    variance = g.node(scope, "ReduceMean", [squared], axes=[-1])
    shifted = g.node(scope, "Add", [variance, g.constant(scope, 1e-5, np.float32)])
    normal = g.node(scope, "Div", [centred, g.node(scope, "Sqrt", [shifted])])
    return g.node(scope, "Add", [g.node(scope, "Mul", [normal, weight]), bias])


def encoder_layer(g, index, x, output=None):
    """x + attention(norm1(x)), then x + fc2(gelu(fc1(norm2(x)))), named `output` if given."""
    layer = f"layers.{index}"
    attention = f"{layer}/self_attn"
    d_head = D_MODEL // HEADS
    h = layer_norm(g, f"{layer}/norm1", x)
    shape = g.node(f"/{attention}", "Shape", [x])
    batch = dimension(g, f"/{attention}", shape, 0)
    seq = dimension(g, f"/{attention}", shape, 1)
    heads = {}
    for name in ("q", "k", "v"):
        projected = g.matmul_add(f"{attention}/{name}", h, D_MODEL, D_MODEL)
        heads[name] = dynamic_view(g, f"/{attention}", projected, batch, seq, [HEADS, d_head])
    q = g.node(f"/{attention}", "Transpose", [heads["q"]], perm=[0, 2, 1, 3])
    # k.view(...).transpose(1, 2).transpose(-2, -1): the exporter fuses the two Transposes.
    k = g.node(f"/{attention}", "Transpose", [heads["k"]], perm=[0, 2, 3, 1])
    v = g.node(f"/{attention}", "Transpose", [heads["v"]], perm=[0, 2, 1, 3])
    scores = g.node(f"/{attention}", "MatMul", [q, k])
    scores = g.node(f"/{attention}", "Div",
                    [scores, g.constant(f"/{attention}", math.sqrt(d_head), np.float32)])
    weights = g.node(f"/{attention}", "Softmax", [scores], axis=-1)
    mixed = g.node(f"/{attention}", "MatMul", [weights, v])
    mixed = g.node(f"/{attention}", "Transpose", [mixed], perm=[0, 2, 1, 3])
    mixed = dynamic_view(g, f"/{attention}", mixed, batch, seq, [D_MODEL])
    x = g.node(f"/{layer}", "Add", [x, g.matmul_add(f"{attention}/out", mixed, D_MODEL, D_MODEL)])
    h = layer_norm(g, f"{layer}/norm2", x)
    h = gelu(g, f"/{layer}/mlp", g.matmul_add(f"{layer}/mlp/fc1", h, D_MODEL, D_MLP))
    return g.node(f"/{layer}", "Add", [x, g.matmul_add(f"{layer}/mlp/fc2", h, D_MLP, D_MODEL)],
                  output)


def transformer_model(seed=0, opset=OPSET):
    g = TorchStyleGraph(seed, opset)
    embedding = g.parameter("embed.weight", g.random.standard_normal((VOCAB, D_MODEL)))
    positions = g.parameter("pos", 0.1 * g.random.standard_normal((1, MAX_POSITIONS, D_MODEL)))
    x = g.node("/embed", "Gather", [embedding, "ids"])
    # self.pos[:, :ids.shape[1]]
    seq = dimension(g, "", g.node("", "Shape", ["ids"]), 1)
    window = g.node("", "Slice", [positions, g.constant("", [0], np.int64), seq,
                                  g.constant("", [1], np.int64), g.constant("", [1], np.int64)])
    x = g.node("", "Add", [x, window])
    for index in range(LAYERS):
        x = encoder_layer(g, index, x, "hidden" if index == LAYERS - 1 else None)
    return g.model(
        "transformer",
        [helper.make_tensor_value_info("ids", TensorProto.INT64, ["batch", "seq"])],
        [helper.make_tensor_value_info("hidden", TensorProto.FLOAT, ["batch", "seq", D_MODEL])])


# transformer16: the same weights as exported at opset 16, its LayerNorms as their chain.
BUILDERS = {"mlp": mlp_model, "cnn": cnn_model, "transformer": transformer_model,
            "transformer16": lambda: transformer_model(opset=16)}


def build(name, batch=1):
    """The model; the CNN's batch is fixed in it (the others' is symbolic)."""
    return cnn_model(batch) if name == "cnn" else BUILDERS[name]()


def example_inputs(name, batch, seq=16, seed=1):
    random = np.random.default_rng(seed)
    if name == "mlp":
        return {"x": random.standard_normal((batch, 784)).astype(np.float32)}
    if name == "cnn":
        return {"x": random.standard_normal((batch, 3, 32, 32)).astype(np.float32)}
    return {"ids": random.integers(0, VOCAB, (batch, seq), dtype=np.int64)}


# The test's shapes: a batch of several rows where the batch is open, so that rows are not
# mixed up; the CNN as exported, for one image.
TEST_BATCH = {"mlp": 4, "cnn": 1, "transformer": 2, "transformer16": 2}


def onnxruntime_outputs(model_path, inputs):
    import onnxruntime  # only here: the builders need onnx alone
    session = onnxruntime.InferenceSession(str(model_path), providers=["CPUExecutionProvider"])
    names = [output.name for output in session.get_outputs()]
    return dict(zip(names, session.run(names, inputs)))


def write_case(name, folder):
    folder.mkdir(parents=True, exist_ok=True)
    model_path = folder / "model.onnx"
    onnx.save(build(name, TEST_BATCH[name]), str(model_path))
    inputs = example_inputs(name, TEST_BATCH[name])
    for subfolder, arrays in (("inputs", inputs),
                              ("expected", onnxruntime_outputs(model_path, inputs))):
        (folder / subfolder).mkdir(exist_ok=True)
        for array_name, array in arrays.items():
            np.save(folder / subfolder / f"{array_name}.npy", array)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out_dir", type=pathlib.Path)
    parser.add_argument("--models", nargs="+", choices=list(BUILDERS), default=list(BUILDERS))
    args = parser.parse_args()
    for name in args.models:
        write_case(name, args.out_dir / name)
        print(f"{name}: {args.out_dir / name}")


if __name__ == "__main__":
    main()
