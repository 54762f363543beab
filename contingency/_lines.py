"""Lines of a byte stream, decoded as UTF-8, with a bound on their length and errors naming the line.

The stream is read in blocks of :data:`BLOCK` bytes, never by an unbounded
``readline``: a line longer than ``limit`` bytes (``/dev/zero``, a binary file)
raises :class:`InputError` as soon as that many bytes have been read without a
newline, so memory stays below ``limit + BLOCK`` bytes whatever the input.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import IO

__all__ = ["BLOCK", "MAX_LINE", "InputError", "read_lines"]

#: The longest line accepted, in bytes, without its line ending (1 MiB).
MAX_LINE = 2**20
#: Bytes read at a time.
BLOCK = 2**16


class InputError(ValueError):
    """Input that cannot be read as asked; the message names the source and, where there is one, the line."""


def _decode(data: bytes, source: str, first_line: int) -> str:
    """``data`` (whole lines) as text; invalid UTF-8 raises naming the line and the byte."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as problem:
        line = first_line + data.count(b"\n", 0, problem.start)
        column = problem.start - (data.rfind(b"\n", 0, problem.start) + 1) + 1
        raise InputError(f"{source} line {line}: invalid UTF-8 (byte 0x{data[problem.start]:02x} "
                         f"at byte {column} of the line)") from None


def _length(line: str) -> int:
    """The length in bytes of a decoded line, without its line ending."""
    return len(line.removesuffix("\r").encode("utf-8"))


def read_lines(stream: IO[bytes], source: str, *, limit: int = MAX_LINE,
               progress: Callable[[int], object] | None = None) -> Iterator[str]:
    """Yield each line of ``stream`` as text with its ``"\\n"`` (the last line may lack it).

    A UTF-8 byte-order mark at the start is dropped. ``progress``, if given, is
    called with the number of bytes of each block read.

    >>> import io
    >>> list(read_lines(io.BytesIO(b"\\xef\\xbb\\xbfa,b\\r\\nc"), "x.csv"))
    ['a,b\\r\\n', 'c']
    >>> list(read_lines(io.BytesIO(b"ok\\n\\xff\\n"), "x.csv"))
    Traceback (most recent call last):
    ...
    contingency._lines.InputError: x.csv line 2: invalid UTF-8 (byte 0xff at byte 1 of the line)
    >>> list(read_lines(io.BytesIO(b"12345\\n123456\\n"), "x.csv", limit=5))
    Traceback (most recent call last):
    ...
    contingency._lines.InputError: x.csv line 2: longer than 5 bytes (the limit of a line)
    """
    pending = b""  # the start of a line whose end has not been read yet
    number = 1  # the number of the first line in pending
    first = True
    while True:
        block = stream.read(BLOCK)
        if progress is not None and block:
            progress(len(block))
        if first and block:
            first = False
            block = block.removeprefix(b"\xef\xbb\xbf")
        if not block:
            break
        data = pending + block
        end = data.rfind(b"\n") + 1
        complete, pending = data[:end], data[end:]
        if complete:
            text = _decode(complete, source, number)
            lines = text.split("\n")
            lines.pop()  # the empty string after the last "\n"
            quarter = limit // 4  # a character is at most 4 bytes: shorter lines are short enough
            for line in lines:
                if len(line) > quarter and _length(line) > limit:
                    raise InputError(f"{source} line {number}: longer than {limit} bytes "
                                     "(the limit of a line)")
                number += 1
                yield line + "\n"
        if len(pending) > limit + 1:  # + 1: room for a "\r" before the "\n"
            raise InputError(f"{source} line {number}: longer than {limit} bytes "
                             "(the limit of a line)")
    if pending:
        yield _decode(pending, source, number)
