"""Named sections of a flat tensor: how a game lays out its observation for a neural network.

A game's observation is one flat `float32` vector (what every RL library takes), made of named
sections, each with its own shape: a board plane is `(rows, columns)`, a seat's counters
`(players, 5)`. `Layout` knows where each section starts, so a game writes a section by name and
a researcher reads one back shaped, as OpenSpiel's observers do with `observer.dict`:

    >>> layout = Layout((("board", (2, 3)), ("money", (1,))))
    >>> layout.size, layout.offset("money")
    (7, 6)
    >>> layout.describe()
    ['board (2, 3) at 0', 'money (1,) at 6']

NumPy is imported only when an array is made (it comes with the `rl` extra).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cached_property
from typing import Any

from tlatelolco.extras import require

Section = tuple[str, tuple[int, ...]]


_numpy: Any = None


def numpy() -> Any:
    """The numpy module, or `MissingExtra` saying to install the `rl` extra."""
    global _numpy
    if _numpy is None:
        _numpy = require("numpy", "rl")
    return _numpy


def action_mask(actions: Any, size: int) -> Any:
    """A new `int8` vector of `size` with a 1 at each of `actions` (the legal ones, a sequence
    or an index array): the mask every environment hands a learner."""
    np = numpy()
    mask = np.zeros(size, np.int8)
    mask[np.asarray(actions, np.intp)] = 1  # typed first: indexing with a list converts slower
    return mask


class Layout:
    """The sections of a flat tensor, in order; immutable and cheap to share."""

    __slots__ = ("__dict__", "sections")

    def __init__(self, sections: Sequence[Section]) -> None:
        names = [name for name, _ in sections]
        if len(set(names)) != len(names):
            raise ValueError(f"section names repeat: {names}")
        for name, shape in sections:
            if not shape or any(type(n) is not int or n < 1 for n in shape):
                raise ValueError(f"section {name!r} has shape {shape!r}; sizes are positive ints")
        self.sections: tuple[Section, ...] = tuple((n, tuple(s)) for n, s in sections)

    @cached_property
    def offsets(self) -> dict[str, int]:
        offsets, at = {}, 0
        for name, shape in self.sections:
            offsets[name] = at
            at += math.prod(shape)
        return offsets

    @cached_property
    def size(self) -> int:
        return sum(math.prod(shape) for _, shape in self.sections)

    @property
    def shape(self) -> tuple[int]:
        return (self.size,)

    def offset(self, name: str) -> int:
        return self.offsets[name]

    def section_shape(self, name: str) -> tuple[int, ...]:
        return dict(self.sections)[name]

    def zeros(self) -> Any:
        """A new zero `float32` vector of this layout's size."""
        np = numpy()
        return np.zeros(self.size, np.float32)

    def views(self, tensor: Any) -> dict[str, Any]:
        """Each section of `tensor` as a shaped view (no copy): {"board": array (2, 3), ...}."""
        if tuple(tensor.shape) != self.shape:
            raise ValueError(f"tensor has shape {tuple(tensor.shape)}; this layout is {self.shape}")
        return {name: tensor[self.offsets[name]:self.offsets[name] + math.prod(shape)]
                .reshape(shape) for name, shape in self.sections}

    def describe(self) -> list[str]:
        return [f"{name} {shape} at {self.offsets[name]}" for name, shape in self.sections]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Layout) and other.sections == self.sections

    def __hash__(self) -> int:
        return hash(self.sections)

    def __repr__(self) -> str:
        return f"Layout({list(self.sections)!r})"
