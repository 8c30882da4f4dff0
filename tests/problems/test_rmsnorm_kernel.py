"""The fused Triton RMSNorm kernel shown with problem 15's solution, run on the CPU.

The kernel's own text is taken from the problem file and executed against a small numpy
stand-in for `triton.language` that counts every element a program loads and stores. So the
test checks the kernel the learner reads, not a copy: that it normalises like the reference
within a tolerance, and that its memory traffic is the estimator's `rmsnorm_fused_bytes`
(x read once, the weight once, y written once) whenever a row fits in one block.
"""

import ast
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from problems.engine import load_yaml
from problems.estimator import catalogue
from problems.estimator.fused_kernels import rmsnorm_fused_bytes

BANK = Path(__file__).resolve().parents[2] / "problems" / "bank"
STORAGE = np.float16  # a 16-bit stand-in for BF16, which numpy lacks: same bytes per element


def shown_code():
    data = load_yaml(next(BANK.glob("15-*.yaml")).read_text())
    (block,) = [block for block in data["code"] if "rmsnorm_kernel" in block["text"]]
    return block["text"]


class Block(np.ndarray):
    """A block of values inside a program; `.to(dtype)` as in Triton."""

    def to(self, dtype):
        return self.astype(dtype).view(Block)


class Memory:
    """Flat buffers by name, and a count of every element loaded and stored."""

    def __init__(self):
        self.buffers: dict[str, np.ndarray] = {}
        self.loads: dict[str, Counter] = {}
        self.stores: dict[str, Counter] = {}

    def pointer(self, name, array):
        self.buffers[name] = array.reshape(-1)
        self.loads[name], self.stores[name] = Counter(), Counter()
        return Pointer(self, name, 0)


class Pointer:
    def __init__(self, memory, name, offset):
        self.memory, self.name, self.offset = memory, name, offset

    def __add__(self, other):
        return Pointer(self.memory, self.name, self.offset + np.asarray(other))

    @property
    def dtype(self):
        return SimpleNamespace(element_ty=self.memory.buffers[self.name].dtype)


class Language:
    """The part of `triton.language` the kernel uses, one program at a time."""

    constexpr = int
    float32 = np.float32

    def __init__(self, memory):
        self.memory = memory
        self.program = 0

    def program_id(self, axis):
        assert axis == 0
        return self.program

    def arange(self, start, end):
        assert end - start & (end - start - 1) == 0, "a block must be a power of two"
        return np.arange(start, end)

    def zeros(self, shape, dtype):
        return np.zeros(shape, dtype=dtype).view(Block)

    def load(self, pointer, mask, other):
        offsets = np.broadcast_to(pointer.offset, mask.shape)
        buffer = self.memory.buffers[pointer.name]
        assert (offsets[mask] < buffer.size).all(), f"a load past the end of {pointer.name}"
        self.memory.loads[pointer.name].update(offsets[mask].tolist())
        values = np.full(mask.shape, other, dtype=buffer.dtype)
        values[mask] = buffer[offsets[mask]]
        return values.view(Block)

    def store(self, pointer, value, mask):
        offsets = np.broadcast_to(pointer.offset, mask.shape)
        assert (offsets[mask] < self.memory.buffers[pointer.name].size).all(), (
            f"a store past the end of {pointer.name}"
        )
        self.memory.stores[pointer.name].update(offsets[mask].tolist())
        self.memory.buffers[pointer.name][offsets[mask]] = np.asarray(value)[mask]

    @staticmethod
    def sum(values, axis):
        return np.sum(values, axis=axis, dtype=np.float32)

    @staticmethod
    def rsqrt(value):
        return np.float32(1) / np.sqrt(np.float32(value))


def compiled(language):
    """The kernel function and MAX_BLOCK, compiled from the shown code alone (the host wrapper
    and the test need torch and a GPU)."""
    tree = ast.parse(shown_code())
    wanted = [
        node
        for node in tree.body
        if (isinstance(node, ast.FunctionDef) and node.name == "rmsnorm_kernel")
        or (isinstance(node, ast.Assign) and node.targets[0].id == "MAX_BLOCK")
    ]
    namespace = {"tl": language, "triton": SimpleNamespace(jit=lambda function: function)}
    exec(compile(ast.Module(wanted, []), "rmsnorm_kernel", "exec"), namespace)  # noqa: S102
    return namespace["rmsnorm_kernel"], namespace["MAX_BLOCK"]


def run(x, weight, eps=1e-6):
    """Launch one program per row as the shown wrapper does; return y and the memory counts."""
    memory = Memory()
    language = Language(memory)
    kernel, max_block = compiled(language)
    n_rows, n_cols = x.shape
    pointers = (
        memory.pointer("x", x.copy()),
        memory.pointer("w", weight.copy()),
        memory.pointer("y", np.zeros_like(x)),
    )
    block = min(1 << (n_cols - 1).bit_length(), max_block)  # triton.next_power_of_2
    for row in range(n_rows):
        language.program = row
        kernel(*pointers, n_cols, n_cols, n_cols, eps, BLOCK=block, ONE_PASS=n_cols <= block)
    return memory.buffers["y"].reshape(x.shape), memory, block


def reference(x, weight, eps=1e-6):
    xf = x.astype(np.float64)
    scale = 1 / np.sqrt((xf * xf).mean(axis=-1, keepdims=True) + eps)
    return xf * scale * weight.astype(np.float64)


def rows(n_rows, n_cols, seed=0, storage=STORAGE):
    generator = np.random.default_rng(seed)
    x = generator.standard_normal((n_rows, n_cols)).astype(storage)
    weight = generator.standard_normal(n_cols).astype(storage)
    return x, weight


HIDDEN_SIZES = sorted(
    {model.hidden_size for model in catalogue.MODELS.values() if model.hidden_size}
)


@pytest.mark.parametrize("n_cols", [*HIDDEN_SIZES, 5120, 40000])
def test_the_shown_kernel_normalises_like_the_reference(n_cols):
    x, weight = rows(3, n_cols)
    y, _, _ = run(x, weight)
    expected = reference(x, weight)
    # One rounding to a 16-bit format (half an ulp: 2^-11 relative) plus FP32 arithmetic.
    np.testing.assert_allclose(y.astype(np.float64), expected, rtol=2e-3, atol=1e-4)


@pytest.mark.parametrize("n_cols", [4096, 5120, 40000])
def test_with_fp32_storage_it_is_the_reference_to_rounding(n_cols):
    # Without the 16-bit output rounding, any slip in the formula (the mean, ε, the weight)
    # shows far above FP32 rounding.
    # A large ε makes its place in the formula visible too.
    x, weight = rows(2, n_cols, storage=np.float32)
    y, _, _ = run(x, weight, eps=0.05)
    np.testing.assert_allclose(y, reference(x, weight, eps=0.05), rtol=1e-5, atol=1e-6)


def test_the_kernel_accumulates_the_sum_of_squares_in_fp32():
    # 16-bit squares of these values would overflow (above 65,504): FP32 keeps the norm exact.
    x, weight = rows(2, 4096)
    x = (x.astype(np.float32) * 300).astype(STORAGE)
    y, _, _ = run(x, weight)
    assert np.isfinite(y).all()
    np.testing.assert_allclose(y.astype(np.float64), reference(x, weight), rtol=2e-3, atol=1e-4)


@pytest.mark.parametrize("n_cols", HIDDEN_SIZES)
@pytest.mark.parametrize("n_rows", [1, 5, 16])
def test_its_memory_traffic_is_the_estimators_fused_count(n_rows, n_cols):
    x, weight = rows(n_rows, n_cols)
    _, memory, block = run(x, weight)
    assert n_cols <= block, "every catalogue model's row fits in one block"
    # x is read once and y written once, element by element, and nothing else is stored.
    assert memory.loads["x"] == Counter(range(n_rows * n_cols))
    assert memory.stores["y"] == Counter(range(n_rows * n_cols))
    assert not memory.stores["x"] and not memory.stores["w"] and not memory.loads["y"]
    # Every program reads the weight; it stays in L2, so HBM sees its h elements once.
    assert set(memory.loads["w"]) == set(range(n_cols))
    element = np.dtype(STORAGE).itemsize
    hbm_bytes = len(memory.loads["x"]) + len(set(memory.loads["w"])) + len(memory.stores["y"])
    bf16 = catalogue.FORMATS["bf16"]
    assert hbm_bytes * element == rmsnorm_fused_bytes(n_rows, n_cols, bf16)


def test_a_row_wider_than_a_block_is_read_twice_and_stays_correct():
    n_cols = 40000
    x, weight = rows(2, n_cols)
    y, memory, block = run(x, weight)
    assert block < n_cols
    assert memory.loads["x"] == Counter({offset: 2 for offset in range(2 * n_cols)})
    assert memory.stores["y"] == Counter(range(2 * n_cols))
    np.testing.assert_allclose(y.astype(np.float64), reference(x, weight), rtol=2e-3, atol=1e-4)


def test_the_mask_keeps_a_width_that_is_not_a_power_of_two_in_bounds():
    x, weight = rows(4, 5120)
    _, memory, block = run(x, weight)
    assert block == 8192
    assert max(memory.loads["x"]) == 4 * 5120 - 1 and max(memory.stores["y"]) == 4 * 5120 - 1
