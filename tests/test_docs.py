"""The documentation site: `mkdocs build --strict` passes, the API reference covers the public
names, and the docstrings' Sphinx roles render as links (docs/griffe_sphinx_roles.py)."""

from __future__ import annotations

import html
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

import contingency
from tests.test_plot import png_size

ROOT = Path(__file__).parent.parent
DOCS = ROOT / "docs"
sys.path.insert(0, str(DOCS))
import griffe_sphinx_roles as roles  # noqa: E402
import make_figures  # noqa: E402
import make_interval_figures  # noqa: E402
import mkdocs_hooks  # noqa: E402

ROLE_LEFT = re.compile(r":(?:py:)?(?:meth|func|attr|class|mod|data|exc|obj):")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built the way the test command promises: strict, every warning an error."""
    directory = tmp_path_factory.mktemp("site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    build = subprocess.run(
        # Not --quiet: it hides warnings from the logger, so strict mode has none to count.
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(directory)],
        cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    assert build.returncode == 0, (
        "mkdocs build --strict failed (python -m pip install -e '.[docs]' installs the tools):\n"
        + build.stdout + build.stderr)
    return directory


def pages(site: Path) -> dict[str, str]:
    return {str(path.relative_to(site)): path.read_text(encoding="utf-8")
            for path in site.rglob("*.html") if path.name != "404.html"}


def outside_code(page: str) -> str:
    """A page's HTML without its code blocks and inline code."""
    return re.sub(r"<pre.*?</pre>|<code.*?</code>", "", page, flags=re.DOTALL)


def anchors(page: str) -> set[str]:
    return set(re.findall(r'\sid="([^"]+)"', page))


def test_no_sphinx_role_is_left_as_raw_text(site):
    for name, page in pages(site).items():
        text = html.unescape(re.sub(r"<[^>]+>", "", page))
        assert not ROLE_LEFT.search(text), f"{name}: {ROLE_LEFT.search(text)}"


def test_roles_become_links_to_the_objects_they_name(site):
    accumulators = (site / "reference" / "accumulators" / "index.html").read_text(encoding="utf-8")
    # Contingency's docstring says :meth:`add_result`, relative to the class.
    assert 'href="#contingency.Contingency.add_result"><code>add_result</code></a>' in accumulators
    # _partition's class docstring: :meth:`~PartitionComparison.remove`, shown as its last name.
    formulas = (site / "reference" / "formulas" / "index.html").read_text(encoding="utf-8")
    # formulas.partition: :func:`table_sums`, relative to the module.
    assert 'href="#contingency.formulas.partition.table_sums"><code>table_sums</code></a>' in formulas
    # formulas.partition: :class:`contingency.PartitionComparison`, a page of its own.
    assert ('href="../accumulators/#contingency.PartitionComparison">'
            '<code>contingency.PartitionComparison</code></a>') in formulas


def test_every_internal_link_reaches_an_anchor(site):
    built = pages(site)
    ids = {name: anchors(page) for name, page in built.items()}
    checked = 0
    for name, page in built.items():
        for href in re.findall(r'<a[^>]+class="autorefs[^"]*"[^>]*href="([^"]+)"', page):
            target, _, anchor = href.partition("#")
            where = os.path.normpath(os.path.join(os.path.dirname(name), target, "index.html"))
            where = where if target else name
            assert anchor in ids[where], f"{name}: {href} has no target"
            checked += 1
    assert checked > 100


def test_the_api_reference_shows_every_public_name(site):
    reference = "".join(page for name, page in pages(site).items() if name.startswith("reference/"))
    ids = anchors(reference)
    for name in contingency.__all__:
        if name != "__version__":
            assert f"contingency.{name}" in ids, (
                f"contingency.{name} is public but not in the API reference: add "
                f"'::: contingency.{name}' to a page under docs/reference/")


def test_doctests_render_as_code_not_as_quotes(site):
    for name, page in pages(site).items():
        assert "&gt;&gt;&gt;" not in outside_code(page), name


def test_every_page_is_in_the_navigation():
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=yaml.BaseLoader)

    def files(entries):
        for entry in entries:
            target = next(iter(entry.values())) if isinstance(entry, dict) else entry
            yield from files(target) if isinstance(target, list) else [target]

    listed = set(files(config["nav"]))
    on_disk = {str(path.relative_to(DOCS)) for path in DOCS.rglob("*.md")}
    assert on_disk <= listed, f"pages missing from mkdocs.yml's nav: {sorted(on_disk - listed)}"


def test_the_navigation_leaves_out_pages_not_written_yet(tmp_path):
    (tmp_path / "index.md").write_text("# home", encoding="utf-8")
    (tmp_path / "guide").mkdir()
    (tmp_path / "guide" / "a.md").write_text("# a", encoding="utf-8")
    nav = ["index.md", {"Guides": [{"A": "guide/a.md"}, {"B": "guide/b.md"}]},
           {"Later": [{"C": "c.md"}]}, {"Missing": "missing.md"}]
    config = mkdocs_hooks.on_config({"nav": nav, "docs_dir": str(tmp_path)})
    assert config["nav"] == ["index.md", {"Guides": [{"A": "guide/a.md"}]}]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("see :meth:`add_result`", "see [`add_result`][pkg.C.add_result]"),
        (":func:`~pkg.mod.f` and :class:`pkg.C`", "[`f`][pkg.mod.f] and [`pkg.C`][pkg.C]"),
        (":py:meth:`adding <add_result>`", "[adding][pkg.C.add_result]"),
        (":meth:`_private` and :class:`numpy.ndarray`", "`_private` and `numpy.ndarray`"),
        (":func:`!add_result`", "`add_result`"),
        ("``code`` stays, :attr:`x`", "``code`` stays, `x`"),
    ],
)
def test_convert_roles(text, expected):
    public = {"add_result": "pkg.C.add_result", "pkg.mod.f": "pkg.mod.f", "pkg.C": "pkg.C"}
    assert roles.convert_roles(text, public.get) == expected


def test_fence_doctests_leaves_fences_and_indented_code_alone():
    text = "Intro::\n\n    >>> indented\n\n```python\n>>> fenced\n```\n>>> bare\nout\n\ntail"
    assert roles.fence_doctests(text) == (
        "Intro:\n\n    >>> indented\n\n```python\n>>> fenced\n```\n```pycon\n>>> bare\nout\n```\n\ntail")


def test_the_plots_page_shows_each_figure_the_script_draws_from_the_bundled_data():
    made = make_figures.figures()
    page = (DOCS / "plots.md").read_text(encoding="utf-8")
    shown = set(re.findall(r"\]\(images/([^)]+\.png)\)", page))
    # The intervals page's coverage figure comes from the script beside it.
    coverage = make_interval_figures.figures()
    intervals_page = (DOCS / "intervals.md").read_text(encoding="utf-8")
    committed = {path.name for path in (DOCS / "images").glob("*.png")}
    assert set(made) == shown
    assert set(coverage) == set(re.findall(r"\]\(images/([^)]+\.png)\)", intervals_page))
    assert set(made) | set(coverage) == committed
    for figure in [*made.values(), *coverage.values()]:
        assert (figure.get_size_inches() * figure.dpi).tolist() == [make_figures.WIDTH, make_figures.HEIGHT]


def test_the_committed_figures_are_pngs_of_the_stated_size():
    for path in (DOCS / "images").glob("*.png"):
        assert png_size(path) == (make_figures.WIDTH, make_figures.HEIGHT), path.name


def test_every_table_renders_as_a_table(site):
    """A table row left without its header's separator renders as a paragraph of pipes
    (docs/contingency.md had one above its table of reads)."""
    for name, page in pages(site).items():
        assert not re.search(r"<p>\s*\|", outside_code(page)), name


def test_no_page_installs_the_package_from_a_package_index():
    """No package index serves `contingency` yet: the pages install it from a clone of the
    repository (`pip install .`, extras as `".[plot]"`), not by name."""
    by_name = re.compile(r"""pip install (?:-\S+ )*["']?contingency\b""")
    for path in [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            assert not by_name.search(line), f"{path.name}:{number}: {line}"
