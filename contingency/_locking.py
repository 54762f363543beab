"""The ``thread_safe=True`` option: a locked subclass of an accumulator, made once per class.

An accumulator is not thread-safe by default: two threads that change one
(or one that reads while another writes, since a read may fold pending
counts and fill caches) can lose counts without any error, and can leave it
corrupted: counts that do not add up, running sums that disagree with the
counts (scores out of range), a state its ``from_dict`` refuses. The recommended
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
``a.merge(b)`` and ``b.merge(a)`` in two threads cannot deadlock. An
unlocked accumulator's ``merge`` and ``==`` read a locked other side inside
:func:`holding` (its lock alone: one lock, no order to keep), so the other
side is read under its own lock whichever side is locked.

The subclass keeps the class's name (``type(x).__name__``), so messages
read the same; ``isinstance`` holds; ``repr`` adds ``thread_safe=True``;
equality compares counts and settings as before (locked or not). A lock
does not pickle: the subclass pickles as the base class plus a snapshot of
its state, a deep copy taken under the lock (pickle serialises it after the
lock is released, while other threads may write), and is rebuilt with a new
lock; ``copy.deepcopy`` takes the same snapshot; ``copy``, ``copy.copy``
and ``+`` keep the option.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import inspect
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from contingency.formulas._arguments import check_flag

__all__ = ["holding", "is_locked", "new_instance"]

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


def holding(other: object) -> contextlib.AbstractContextManager[Any]:
    """What to hold while reading ``other``: its lock if it is a locked accumulator, else nothing.

    An accumulator's ``merge`` and ``==`` read the other side inside it, so
    that a thread-safe other side is read under its own lock even when this
    side has none. (When both are locked, the wrapper already holds both, and
    the reentrant lock is taken again.)

    >>> from contingency import Contingency
    >>> shared = Contingency(thread_safe=True)
    >>> with holding(shared):
    ...     shared._lock._is_owned()
    True
    >>> holding(Contingency())  # doctest: +ELLIPSIS
    <contextlib.nullcontext object at ...>
    """
    if type(other) in _locked:
        lock: threading.RLock = other._lock  # type: ignore[attr-defined]
        return lock
    return contextlib.nullcontext()


def constructor_signature(cls: type) -> inspect.Signature:
    """The signature to show for ``cls(...)``: its ``__init__``'s, without ``self``.

    An accumulator's ``__new__`` takes ``(*args, thread_safe=False, **kwargs)``
    to choose the locked class, which is the signature :func:`inspect.signature`
    would show (IDEs and notebooks too); the class's ``__signature__`` is set
    to this one instead.

    >>> from contingency import Contingency
    >>> str(inspect.signature(Contingency)).startswith("(categories")
    True
    """
    init = inspect.signature(vars(cls)["__init__"])  # the class's own, not a base's
    return init.replace(parameters=list(init.parameters.values())[1:],
                        return_annotation=inspect.Signature.empty)


def new_instance(cls: type[T], thread_safe: object) -> T:
    """A bare instance for ``cls.__new__``: of ``cls``, or of its locked subclass if asked.

    ``thread_safe`` must be a flag, as every flag option is (:func:`check_flag`: ``True`` or
    ``False``, Python's or numpy's; ``TypeError`` naming it otherwise). An instance of a
    locked subclass is always locked (``copy`` makes ``type(self)()``), and has its own new
    lock.

    >>> from contingency import PartitionComparison
    >>> type(new_instance(PartitionComparison, True)).__name__
    'PartitionComparison'
    >>> new_instance(PartitionComparison, "yes")
    Traceback (most recent call last):
    ...
    TypeError: thread_safe must be True or False, not 'yes'
    """
    if thread_safe.__class__ is not bool:  # (True or False, the common case, without a call)
        thread_safe = check_flag(thread_safe, "thread_safe")
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
                _locking(attribute.fget, base) if attribute.fget else None,
                _locking(attribute.fset, base) if attribute.fset else None,
                _locking(attribute.fdel, base) if attribute.fdel else None,
                attribute.__doc__)
        elif callable(attribute) and not isinstance(attribute, (classmethod, staticmethod, type)):
            namespace[name] = _locking(attribute, base)
    if "__repr__" in namespace:
        namespace["__repr__"] = _repr(namespace["__repr__"])

    def __reduce_ex__(self: Any, protocol: object) -> tuple[Any, ...]:
        return _rebuild, (base,), _snapshot(self)

    def __deepcopy__(self: Any, memo: dict[int, Any]) -> Any:
        twin: Any = _rebuild(base)
        memo[id(self)] = twin
        twin.__setstate__(_snapshot(self))
        return twin

    namespace["__reduce_ex__"] = __reduce_ex__
    namespace["__deepcopy__"] = __deepcopy__
    namespace["thread_safe"] = True
    locked = type(base.__name__, (base,), namespace)
    _locked.add(locked)
    _subclasses[base] = locked
    return locked


def _snapshot(accumulator: Any) -> Any:
    """The state of a locked accumulator, copied while its lock is held: no one else's to change.

    ``__getstate__`` gives the live dictionaries; pickle would serialise them
    after the lock is released, while other threads write to them.
    """
    with accumulator._lock:
        return copy.deepcopy(accumulator.__getstate__())


def _lookup(cls: type, name: str) -> Any:
    """The attribute ``name`` as the class body defined it (a property, a function, a classmethod)."""
    for klass in cls.__mro__:
        if name in vars(klass):
            return vars(klass)[name]
    return None


#: Dunders whose first argument may be another accumulator, besides methods annotated so.
_BINARY_DUNDERS = frozenset({"__eq__", "__ne__", "__add__", "__radd__", "__iadd__"})


def _locking(method: Callable[..., T], base: type) -> Callable[..., T]:
    """``method`` holding the instance's lock, and the lock of a locked first argument too.

    The wrapper is compiled with the method's own parameters (as attrs and
    dataclasses compile their methods), so a call passes its arguments on
    as they came instead of packing them into ``*args`` and ``**kwargs``:
    that saves about a third of the wrapper's cost on ``add_result``.
    """
    name = method.__name__
    parameters, arguments, defaults = _signature(method)
    first = parameters[1].split("=")[0].lstrip("*") if len(parameters) > 1 else ""
    paired = bool(first) and not parameters[1].startswith("*") and (
        name in _BINARY_DUNDERS or _annotated_as(method, first, base))
    call = f"return _method({', '.join(arguments)})"
    lines = [f"def {name}({', '.join(parameters)}):"]
    if paired:
        lines += [f"    if type({first}) in _locked and {first} is not self:",
                  f"        _first, _second = sorted((self._lock, {first}._lock), key=id)",
                  "        with _first, _second:",
                  f"            {call}"]
    lines += ["    with self._lock:", f"        {call}"]
    namespace: dict[str, Any] = {"_method": method, "_locked": _locked, **defaults}
    exec("\n".join(lines), namespace)  # our own methods' signatures, never user input
    wrapper: Callable[..., T] = functools.wraps(method)(namespace[name])
    return wrapper


def _signature(method: Callable[..., Any]) -> tuple[list[str], list[str], dict[str, Any]]:
    """The wrapper's parameters, the call's arguments and the defaults they refer to."""
    generic: tuple[list[str], list[str], dict[str, Any]] = (
        ["self", "*args", "**kwargs"], ["self", "*args", "**kwargs"], {})
    try:
        signature = inspect.signature(method)
    except (TypeError, ValueError):  # a builtin without a signature
        return generic
    parameters: list[str] = []
    arguments: list[str] = []
    defaults: dict[str, Any] = {}
    starred = False
    for position, parameter in enumerate(signature.parameters.values()):
        kind, name = parameter.kind, parameter.name
        if position == 0 and (name != "self" or kind is parameter.KEYWORD_ONLY):
            return generic
        text = name
        if parameter.default is not parameter.empty:
            defaults[f"_default_{name}"] = parameter.default
            text = f"{name}=_default_{name}"
        if kind is parameter.VAR_POSITIONAL:
            starred = True
            parameters.append(f"*{name}")
            arguments.append(f"*{name}")
        elif kind is parameter.VAR_KEYWORD:
            parameters.append(f"**{name}")
            arguments.append(f"**{name}")
        elif kind is parameter.KEYWORD_ONLY:
            if not starred:
                parameters.append("*")
                starred = True
            parameters.append(text)
            arguments.append(f"{name}={name}")
        else:
            parameters.append(text)
            arguments.append(name)
    return parameters, arguments, defaults


def _annotated_as(method: Callable[..., Any], parameter: str, base: type) -> bool:
    """Whether ``parameter`` is annotated as ``base`` or one of its classes (a merge's other side)."""
    annotation = getattr(method, "__annotations__", {}).get(parameter)
    names = {klass.__name__ for klass in base.__mro__ if klass is not object}
    text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", "")
    return text in names


def _repr(method: Callable[[Any], str]) -> Callable[[Any], str]:
    """The class's ``repr`` with ``thread_safe=True`` added before its closing parenthesis."""

    @functools.wraps(method)
    def locked_repr(self: Any) -> str:
        text = method(self)
        return f"{text[:-1]}, thread_safe=True)" if text.endswith(")") else text

    return locked_repr
