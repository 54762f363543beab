"""An optional progress bar on standard error, drawn by ``tqdm`` (the ``progress`` extra) if installed.

There is a bar only when all hold: standard error is a terminal, the input's
size is known and at least :data:`LARGE` bytes, and ``tqdm`` can be imported.
Otherwise :func:`progress_bar` gives a bar that draws nothing, so the command
line works the same without the extra.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TextIO

__all__ = ["LARGE", "progress_bar"]

#: The smallest input, in bytes, that gets a bar (reading it takes about a second).
LARGE = 16 * 2**20


@contextmanager
def progress_bar(size: int | None, description: str, stream: TextIO | None = None
                 ) -> Iterator[Callable[[int], object] | None]:
    """A callable taking the number of bytes just read, or ``None`` when there is no bar to draw.

    >>> with progress_bar(10**9, "x.csv", stream=None) as advance:  # pytest's stderr: no terminal
    ...     advance is None
    True
    """
    stream = sys.stderr if stream is None else stream
    # sys.stderr is None when the interpreter started without one (pythonw, some embeddings).
    if stream is None or size is None or size < LARGE or not stream.isatty():
        yield None
        return
    try:
        from tqdm import tqdm
    except ImportError:  # the optional extra is not installed: no bar, no error
        yield None
        return
    with tqdm(total=size, desc=description, unit="B", unit_scale=True, unit_divisor=1024,
              file=stream, leave=False, dynamic_ncols=True) as bar:
        yield bar.update
