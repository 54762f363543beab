"""The ``thread_safe=True`` option: a locked subclass of an accumulator, made once per class.

An accumulator is not thread-safe by default: two threads that change one
(or one that reads while another writes, since a read may fold pending
counts and fill caches) can lose counts without any error. The recommended
pattern needs no lock at all: one accumulator per thread, then ``merge``
(merge is addition, so the result is exact).

``thread_safe=True`` in a constructor, ``from_labels`` or ``from_dict``
returns an instance of a subclass of the accumulator, made here the first
time it is asked for and kept: every public method and property of the
class (whatever its name, including those added later), and the dunders in
:data:`_LOCKED_DUNDERS`, holds the instance's reentrant lock for the whole
call (methods call each other, hence an ``RLock``). So every public call is
atomic, and the default class pays nothing: its methods are not wrapped,
it has no lock slot, and it never tests a flag.

A method whose first argument is another locked accumulator (``merge``,
``+``, ``==``) holds both locks, taken in a fixed order (by ``id``) so that
``a.merge(b)`` and ``b.merge(a)`` in two threads cannot deadlock.

The subclass keeps the class's name (``type(x).__name__``), so messages
read the same; ``isinstance`` holds; ``repr`` adds ``thread_safe=True``;
equality compares counts and settings as before (locked or not). A lock
does not pickle: the subclass pickles as the base class plus its state and
is rebuilt with a new lock; ``copy`` and ``+`` keep the option.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["is_locked", "new_instance"]

T = TypeVar("T")

#: Dunders that read or change the state, wrapped like public methods when a class has them.
_LOCKED_DUNDERS = frozenset({
    "__eq__", "__ne__", "__add__", "__radd__", "__iadd__", "__repr__", "__str__",
    "__getstate__", "__len__", "__iter__", "__contains__", "__getitem__", "__bool__",
})

_subclasses: dict[type, type] = {}  # base class -> its locked subclass
_locked: set[type] = set()  # the locked subclasses
_making = threading.Lock()  # guards the two above while a subclass is made


def is_locked(cls: type) -> bool:
    """Whether ``cls`` is a locked subclass made here.

    >>> from contingency import Contingency
    >>> is_locked(Contingency), is_locked(type(Contingency(thread_safe=True)))
    (False, True)
    """
    return cls in _locked


def new_instance(cls: type[T], thread_safe: object) -> T:
    """A bare instance for ``cls.__new__``: of ``cls``, or of its locked subclass if asked.

    ``thread_safe`` must be a bool. An instance of a locked subclass is always
    locked (``copy`` makes ``type(self)()``), and has its own new lock.

    >>> from contingency import PartitionComparison
    >>> type(new_instance(PartitionComparison, True)).__name__
    'PartitionComparison'
    >>> new_instance(PartitionComparison, "yes")
    Traceback (most recent call last):
    ...
    TypeError: thread_safe must be True or False, not 'yes'
    """
    if not isinstance(thread_safe, bool):
        raise TypeError(f"thread_safe must be True or False, not {thread_safe!r}")
    if cls in _locked:
        made = object.__new__(cls)
        made._lock = threading.RLock()  # type: ignore[attr-defined]
        return made
    if not thread_safe:
        return object.__new__(cls)
    locked = _subclasses.get(cls)
    if locked is None:
        with _making:
            locked = _subclasses.get(cls) or _make(cls)
    return new_instance(locked, True)


def _rebuild(base: type[T]) -> T:
    """A new locked instance of ``base``, for pickle and copy to give the base class's state to."""
    return new_instance(base, True)


def _make(base: type) -> type:
    """Make and record the locked subclass of ``base``: every public method and property wrapped."""
    namespace: dict[str, Any] = {"__slots__": ("_lock",), "__module__": base.__module__,
                                 "__qualname__": base.__qualname__, "__doc__": base.__doc__}
    for name in dir(base):
        if name.startswith("_") and name not in _LOCKED_DUNDERS:
            continue
        attribute = _lookup(base, name)
        if isinstance(attribute, property):
            namespace[name] = property(
                _locking(attribute.fget) if attribute.fget else None,
                _locking(attribute.fset) if attribute.fset else None,
                _locking(attribute.fdel) if attribute.fdel else None,
                attribute.__doc__)
        elif callable(attribute) and not isinstance(attribute, (classmethod, staticmethod, type)):
            namespace[name] = _locking(attribute)
    if "__repr__" in namespace:
        namespace["__repr__"] = _repr(namespace["__repr__"])

    def __reduce_ex__(self: Any, protocol: object) -> tuple[Any, ...]:
        return _rebuild, (base,), self.__getstate__()

    namespace["__reduce_ex__"] = __reduce_ex__
    namespace["thread_safe"] = True
    locked = type(base.__name__, (base,), namespace)
    _locked.add(locked)
    _subclasses[base] = locked
    return locked


def _lookup(cls: type, name: str) -> Any:
    """The attribute ``name`` as the class body defined it (a property, a function, a classmethod)."""
    for klass in cls.__mro__:
        if name in vars(klass):
            return vars(klass)[name]
    return None


def _locking(method: Callable[..., T]) -> Callable[..., T]:
    """``method`` holding the instance's lock, and the lock of a locked first argument too."""

    @functools.wraps(method)
    def locked(self: Any, *args: Any, **kwargs: Any) -> T:
        if args and type(args[0]) in _locked and args[0] is not self:
            first, second = sorted((self._lock, args[0]._lock), key=id)
            with first, second:
                return method(self, *args, **kwargs)
        with self._lock:
            return method(self, *args, **kwargs)

    return locked


def _repr(method: Callable[[Any], str]) -> Callable[[Any], str]:
    """The class's ``repr`` with ``thread_safe=True`` added before its closing parenthesis."""

    @functools.wraps(method)
    def locked_repr(self: Any) -> str:
        text = method(self)
        return f"{text[:-1]}, thread_safe=True)" if text.endswith(")") else text

    return locked_repr
