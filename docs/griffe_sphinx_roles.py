"""A Griffe extension that turns the docstrings' reStructuredText habits into Markdown at build time.

The library's docstrings are written for ``help()`` and for Sphinx: cross-references as
Sphinx roles (``:meth:`add_result```, ``:class:`~contingency.Contingency```), doctests
as bare ``>>>`` lines, literal blocks introduced by ``::``. MkDocs shows all three badly
(roles as raw text, doctests as nested block quotes), so when mkdocstrings loads the
package this extension rewrites every docstring, leaving the source untouched:

- a role becomes a mkdocstrings cross-reference ``[text][public.path]`` when its target
  resolves (against the object's class, then its module, then the package, then as
  written) to an object the API reference shows; any other target (a private helper, a
  name of another library) becomes inline code;
- a run of doctest lines becomes a fenced ``pycon`` block;
- a paragraph ending in ``::`` ends in ``:`` (its indented block is already code).

mkdocs.yml loads it as ``extensions: [docs/griffe_sphinx_roles.py]``; tests/test_docs.py
tests the conversions and the built site.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterator
from typing import Any

import griffe

#: ``:role:`target``` or ``:py:role:`title <target>```, the roles Python docstrings use.
ROLE = re.compile(r":(?:py:)?(?P<role>[a-z]+):`(?P<body>[^`]+)`")
#: The modules the API reference documents in full, besides the names in ``contingency.__all__``.
DOCUMENTED_MODULES = (
    "contingency.plot",
    "contingency.dask",
    "contingency.formulas.classification",
    "contingency.formulas.partition",
    "contingency.formulas.concentration",
    "contingency.formulas.intervals",
)

Resolver = Callable[[str], "str | None"]


def convert_roles(text: str, resolve: Resolver) -> str:
    """Rewrite every Sphinx role of ``text`` as a cross-reference, or as code when ``resolve`` gives None.

    >>> convert_roles("see :meth:`~a.B.c` and :func:`x`", {"a.B.c": "a.B.c"}.get)
    'see [`c`][a.B.c] and `x`'
    >>> convert_roles(":class:`the class <a.B>`", {"a.B": "pkg.B"}.get)
    '[the class][pkg.B]'
    """

    def replace(match: re.Match[str]) -> str:
        body = match["body"].strip()
        explicit = re.fullmatch(r"(?P<title>.*?)\s*<(?P<target>[^<>]+)>", body, re.DOTALL)
        if explicit:
            title, target = explicit["title"], explicit["target"]
        else:
            target = body.lstrip("!")
            shown = target.lstrip("~")
            title = "`" + (shown.rsplit(".", 1)[-1] if target.startswith("~") else shown) + "`"
            target = shown
        path = None if body.startswith("!") else resolve(target)
        if path is None:
            return title
        return f"[{title}][{path}]"

    return ROLE.sub(replace, text)


def fence_doctests(text: str) -> str:
    """Wrap each run of doctest lines that is not already indented code in a ``pycon`` fence.

    A run starts at a ``>>>`` line and takes the lines after it up to a blank line, as
    doctest does. A paragraph ending in ``::`` ends in ``:``.

    >>> fence_doctests("Example::\\n\\n    x\\n\\n>>> 1 + 1\\n2\\n\\nEnd.").split("\\n")
    ['Example:', '', '    x', '', '```pycon', '>>> 1 + 1', '2', '```', '', 'End.']
    """
    lines = text.split("\n")
    out: list[str] = []
    fenced = False  # inside a fence the docstring wrote itself
    k = 0
    while k < len(lines):
        line = lines[k]
        if line.lstrip().startswith("```"):
            fenced = not fenced
        if not fenced and line.startswith(">>>"):
            out.append("```pycon")
            while k < len(lines) and lines[k].strip():
                out.append(lines[k])
                k += 1
            out.append("```")
            continue
        if not fenced and line.endswith("::") and not line.strip().startswith(">>>"):
            line = line[:-1]
        out.append(line)
        k += 1
    return "\n".join(out)


def _walk(obj: griffe.Object | griffe.Alias) -> Iterator[griffe.Object | griffe.Alias]:
    yield obj
    for member in obj.members.values():
        if not member.is_alias and member.parent is obj:
            yield from _walk(member)


class SphinxRoles(griffe.Extension):
    """Rewrites the docstrings of the whole package once it is loaded (see the module docstring)."""

    def on_package(self, *, pkg: griffe.Module, loader: griffe.GriffeLoader, **kwargs: Any) -> None:
        if pkg.path != "contingency":
            return
        made_properties(pkg)
        public = public_paths(pkg, loader)
        for obj in _walk(pkg):
            if obj.docstring is None:
                continue
            resolve = _resolver(obj, loader, public)
            obj.docstring.value = fence_doctests(convert_roles(obj.docstring.value, resolve))


def made_properties(pkg: griffe.Module) -> None:
    """Properties a class is given at import (Contingency's averages, made from the registry of
    scores): the source shows only their annotations, so their kind and docstrings come from the
    class itself."""
    for obj in _walk(pkg):
        if obj.is_alias or not obj.is_class:
            continue
        try:
            runtime = getattr(importlib.import_module(obj.module.path), obj.name)
        except (ImportError, AttributeError):
            continue
        for name, member in obj.members.items():
            made = vars(runtime).get(name)
            if (isinstance(made, property) and made.__doc__ and not member.is_alias
                    and member.is_attribute and member.docstring is None):
                member.docstring = griffe.Docstring(made.__doc__, parent=member)
                member.labels = {"property"}


def public_paths(pkg: griffe.Module, loader: griffe.GriffeLoader) -> dict[str, str]:
    """Canonical path -> the path the API reference shows it under, for every documented object."""
    public: dict[str, str] = {}

    def add(obj: griffe.Object | griffe.Alias, path: str) -> None:
        try:
            canonical = obj.canonical_path
        except griffe.AliasResolutionError:  # a name from another package
            return
        if canonical in public:
            return
        public[canonical] = path
        target = obj.final_target if obj.is_alias else obj
        if target.is_class or (target.is_module and not obj.is_alias):
            # A class's inherited members too: a mixin's methods are shown under the class.
            members = target.all_members if target.is_class else target.members
            for name, member in members.items():
                if not name.startswith("_") and (target.is_class or member.is_public):
                    add(member, f"{path}.{name}")

    for name in pkg.exports or ():
        if name in pkg.members:
            add(pkg.members[name], f"contingency.{name}")
    for module in DOCUMENTED_MODULES:
        add(loader.modules_collection[module], module)
    return public


def _resolver(obj: griffe.Object | griffe.Alias, loader: griffe.GriffeLoader,
              public: dict[str, str]) -> Resolver:
    """Resolves a role's target as Sphinx would: the object's class, its module, the package, absolute.

    A mixin's member is shown under the class that inherits it, so its roles are resolved
    against that class first (``:attr:`categories``` in a mixin's docstring is the class's).
    """
    scopes = []
    if obj.parent is not None and obj.parent.is_class:
        shown = public.get(obj.path)  # where the API reference shows a class's member
        if shown is not None and shown.rsplit(".", 1)[0] != obj.parent.path:
            scopes.append(shown.rsplit(".", 1)[0])
    scope: griffe.Object | griffe.Alias | None = obj
    while scope is not None:
        if scope.is_class or scope.is_module:
            scopes.append(scope.path)
        scope = scope.parent
    scopes.append("")

    def resolve(target: str) -> str | None:
        for prefix in scopes:
            path = f"{prefix}.{target}" if prefix else target
            try:
                found = loader.modules_collection[path]
                canonical = found.canonical_path
            except (KeyError, ValueError, griffe.AliasResolutionError, griffe.CyclicAliasError):
                continue
            return public.get(canonical)
        return None

    return resolve
