"""Text renderings of finished numbers. Nothing here computes a score.

- :func:`perl_stats_table`: Statistics::Contingency's ``stats_table``, character for character;
- :func:`classification_report`: the per-category table scikit-learn users expect;
- :func:`partition_report`: the counts and every score of a partition comparison;
- :func:`paired_report`: two models' summary scores, their paired table and McNemar's tests;
- :func:`grouped_report`: scores by group, overall, and their disparities;
- :func:`json_numbers`: NaN to ``None``, so that score dictionaries are valid JSON;
- :func:`json_text`: a score dictionary as indented JSON, in pieces, its records streamed
  from columns (:class:`Records`, intervals as :class:`Bounds`) without a dict per record;
- :func:`record_dicts`: the records of :class:`Records`, a few thousand at a time.
"""

from __future__ import annotations

import itertools
import json
import math
import numbers
import reprlib
from collections.abc import Iterator, Sequence
from typing import Any

from attrs import frozen

from contingency.formulas._arguments import call_prefix

__all__ = ["Bounds", "Records", "check_digits", "check_names", "classification_report",
           "grouped_report", "json_numbers", "json_text", "paired_report", "partition_report",
           "perl_stats_table", "record_dicts", "significant_figures"]


def significant_figures(number: float, figs: int) -> str:
    """Format ``number`` as Statistics::Contingency's ``_sig_figs`` does.

    Perl keeps ``figs - int(log(x) / log(10))`` digits after the point, where
    ``int`` truncates toward zero: so 0.5 gets ``figs`` decimals, 0.05 gets
    ``figs + 1``, and 0 gets ``figs``. The quotient of logarithms (not
    ``log10``) is kept on purpose: it is what Perl computes, and it differs
    from ``log10`` at exact powers of ten (``log(0.1) / log(10)`` is slightly
    above -1, so 0.1 gets ``figs`` decimals, not ``figs + 1``).

    >>> significant_figures(0.5, 3), significant_figures(0.05, 3), significant_figures(0.1, 3)
    ('0.500', '0.0500', '0.100')
    >>> significant_figures(1.0, 1), significant_figures(0.0, 2)
    ('1.0', '0.00')
    """
    if math.isnan(number):
        return "nan"
    magnitude = math.log(number) / math.log(10) if number != 0 else 0.0
    return f"{number:.{figs - int(magnitude)}f}"


def perl_stats_table(values: Sequence[float], figs: int = 3) -> str:
    """Statistics::Contingency's ``stats_table`` of the seven figures it shows.

    ``values`` are, in order: macro recall, macro precision, macro F1, micro
    recall, micro precision, micro F1 and micro error. Perl's layout is kept
    with its quirks: every column is as wide as the widest figure, and when
    that is narrower than 4 characters the header is wider than the border.

    >>> print(perl_stats_table([1, 0.5, 0.25, 1, 1, 1, 0], 1), end="")
    +-------------------------------+
    |  maR  maP maF1   miR  miP miF1   Err |
    | 1.0 0.5 0.2  1.0 1.0 1.0  0.0 |
    +-------------------------------+
    """
    data = [significant_figures(float(value), figs) for value in values]
    width = max(len(item) for item in data)
    pad = " " * (width - 4)
    border = "+" + "-" * (10 + 7 * width) + "+\n"
    header = f"| {pad} maR {pad} maP{pad} maF1  {pad} miR {pad} miP{pad} miF1  {pad} Err |\n"
    r = [item.rjust(width) for item in data]
    row = f"| {r[0]} {r[1]} {r[2]}  {r[3]} {r[4]} {r[5]}  {r[6]} |\n"
    return border + header + row + border


#: The types json_numbers keeps as they are without looking further.
_KEPT = frozenset({str, int, bool, type(None)})


def json_numbers(value: Any) -> Any:
    """A copy of nested dicts and lists with every NaN replaced by ``None`` (JSON has no NaN).

    >>> json_numbers({"x": [1.0, float("nan")], "y": None})
    {'x': [1.0, None], 'y': None}
    """
    # (a float that is a number, most of the items, and a str, int, bool or None are kept
    # without a call: item == item; type(item) in _KEPT)
    if isinstance(value, dict):
        return {key: item if (type(item) is float and item == item) or type(item) in _KEPT
                else json_numbers(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [item if (type(item) is float and item == item) or type(item) in _KEPT
                else json_numbers(item) for item in value]
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


@frozen
class Records:
    """A list of records (one JSON object each) held as columns of finished numbers.

    Record ``k`` is ``{label_key: labels[k], keys[0]: columns[0][k], ...}``;
    ``labels`` are JSON values, each column a numpy array or a list of Python
    numbers (NaN written as ``null``, as :func:`json_numbers` makes it).
    """

    label_key: str
    labels: Sequence[Any]
    keys: Sequence[str]
    columns: Sequence[Any]

    def __len__(self) -> int:
        return len(self.labels)


@frozen
class Bounds:
    """A column of intervals ``[low, high]``: two float64 arrays, NaN in both where none applies.

    A :class:`Records` column: its records hold ``[low, high]``, or ``None``
    (JSON ``null``) where the interval was refused.

    >>> import numpy as np
    >>> Bounds(np.array([0.25, float("nan")]), np.array([0.5, float("nan")])).tolist()
    [[0.25, 0.5], None]
    """

    low: Any
    high: Any

    def __len__(self) -> int:
        return len(self.low)

    def __getitem__(self, index: slice) -> Bounds:
        return Bounds(self.low[index], self.high[index])

    def tolist(self) -> list[list[float] | None]:
        """Each interval as ``[low, high]``, or ``None``."""
        return [None if low != low else [low, high]
                for low, high in zip(self.low.tolist(), self.high.tolist())]


#: Records written per piece of :func:`json_text`'s output.
_RECORDS_PER_PIECE = 4096


def json_text(data: dict[str, Any]) -> Iterator[str]:
    """``json.dumps(data, indent=2, allow_nan=False)`` in pieces, NaN as ``null``, character for character.

    A :class:`Records` value, at any depth of ``data``'s dicts, is written as
    the list of its records would be, a few thousand records per piece,
    without making a dict (or a list of strings) for every record: what the
    command line prints of a million categories.

    >>> data = {"n": 2, "rows": Records("id", ["x", 7], ["v"], [[0.5, float("nan")]])}
    >>> "".join(json_text(data)) == json.dumps(
    ...     {"n": 2, "rows": [{"id": "x", "v": 0.5}, {"id": 7, "v": None}]}, indent=2)
    True
    >>> import numpy as np
    >>> bounds = Bounds(np.array([0.25, float("nan")]), np.array([0.5, float("nan")]))
    >>> data = {"block": {"level": 0.9, "rows": Records("id", ["x", "y"], ["b"], [bounds])}}
    >>> "".join(json_text(data)) == json.dumps({"block": {"level": 0.9, "rows": [
    ...     {"id": "x", "b": [0.25, 0.5]}, {"id": "y", "b": None}]}}, indent=2)
    True
    """
    yield from _json_pieces(data, 0)


def _json_pieces(value: Any, depth: int) -> Iterator[str]:
    """``value`` as ``json.dumps(..., indent=2)`` writes it ``depth`` levels deep, in pieces."""
    if isinstance(value, Records):
        yield from _json_records(value, depth)
    elif isinstance(value, dict) and value and _holds_records(value):
        inside = "\n" + "  " * (depth + 1)
        for position, (key, item) in enumerate(value.items()):
            yield f"{',' if position else '{'}{inside}{json.dumps(key)}: "
            yield from _json_pieces(item, depth + 1)
        yield "\n" + "  " * depth + "}"
    else:
        text = json.dumps(json_numbers(value), indent=2, allow_nan=False)
        # depth levels deeper (a JSON string holds no newline)
        yield text.replace("\n", "\n" + "  " * depth) if depth else text


def _holds_records(value: dict[str, Any]) -> bool:
    return any(isinstance(item, Records) or (isinstance(item, dict) and _holds_records(item))
               for item in value.values())


def _json_records(records: Records, depth: int) -> Iterator[str]:
    """The list of ``records``' records, ``depth`` levels deep (``json.dumps``'s form)."""
    if not records.labels:
        yield "[]"
        return
    # One %-template per record: "%s" where each value goes, the rest escaped.
    record, key_at = "  " * (depth + 1), "  " * (depth + 2)
    template = "".join([f"{record}{{\n{key_at}{json.dumps(records.label_key)}: ".replace("%", "%%"),
                        "%s", *(f",\n{key_at}{json.dumps(key)}: ".replace("%", "%%") + "%s"
                                for key in records.keys), f"\n{record}}}"])
    for start in range(0, len(records.labels), _RECORDS_PER_PIECE):
        stop = start + _RECORDS_PER_PIECE
        columns = [_json_values(column[start:stop], depth + 2) for column in records.columns]
        labels = [json.dumps(label) for label in records.labels[start:stop]]
        rows = [template % row for row in zip(labels, *columns)]
        yield ("[\n" if start == 0 else ",\n") + ",\n".join(rows)
    yield "\n" + "  " * depth + "]"


def _json_values(column: Any, depth: int) -> list[str]:
    """Each value of ``column`` as ``json.dumps`` writes it ``depth`` levels deep (NaN as ``null``)."""
    if isinstance(column, Bounds):  # [low, high] over three lines, or null (bounds are finite)
        inside, end = "\n" + "  " * (depth + 1), "\n" + "  " * depth
        return ["null" if low != low else
                f"[{inside}{float.__repr__(low)},{inside}{float.__repr__(high)}{end}]"
                for low, high in zip(column.low.tolist(), column.high.tolist())]
    values = column.tolist() if hasattr(column, "tolist") else list(column)
    texts = [int.__repr__(value) if type(value) is int else json.dumps(value, allow_nan=False)
             if type(value) is not float else "null" if value != value else float.__repr__(value)
             for value in values]
    if "inf" in texts or "-inf" in texts:
        raise ValueError("Out of range float values are not JSON compliant")
    return texts


def _number(value: float | None, digits: int) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


#: The most digits a report shows after the point: a double's exact value has at most 1074 (its
#: least power of two, 2**-1074); past them every digit is 0, and Python refuses formats of
#: more than 2**31 - 1 with a message of its own.
MOST_DIGITS = 1074


def check_digits(digits: object, where: str | None = None) -> int:
    """``digits`` as an ``int`` if it is an integer (Python's or numpy's, not a bool) from 0 to
    :data:`MOST_DIGITS`, else ``ValueError`` naming it and the call ``where``: each
    accumulator's ``report`` checks it so, before anything is read.

    >>> check_digits(4, "report")
    4
    >>> check_digits(2.0, "report")
    Traceback (most recent call last):
    ...
    ValueError: report: digits must be an integer >= 0 (at most 1074), not 2.0
    """
    if (isinstance(digits, bool) or not isinstance(digits, numbers.Integral)
            or not 0 <= int(digits) <= MOST_DIGITS):
        raise ValueError(f"{call_prefix(where)}digits must be an integer >= 0 (at most "
                         f"{MOST_DIGITS}), not {reprlib.repr(digits)}")
    return int(digits)


def check_names(names: object, where: str | None = None) -> tuple[str, str]:
    """``names`` as two Python strings if it is a tuple or list of two strings, else
    ``ValueError`` naming it and the call ``where`` (a string is not taken for its characters)."""
    if (not isinstance(names, (tuple, list)) or len(names) != 2
            or not all(isinstance(name, str) for name in names)):
        raise ValueError(f"{call_prefix(where)}names must be a pair of strings, such as "
                         f"('a', 'b'), not {reprlib.repr(names)}")
    return str(names[0]), str(names[1])


def _bounds_text(bounds: Sequence[float] | None, digits: int) -> str:
    return "-" if bounds is None else f"[{bounds[0]:.{digits}f}, {bounds[1]:.{digits}f}]"


def classification_report(scores: dict[str, Any], digits: int = 3) -> str:
    """The per-category table with support and every average.

    ``scores`` is :meth:`contingency.Contingency.scores`'s output (its
    categories a list of records or their :class:`Records`); numbers are
    shown with ``digits`` decimals, ``-`` where a value is undefined. The
    categories come in the order ``scores`` lists them (the accumulator's
    :attr:`~contingency.Contingency.categories`). When ``scores`` holds an
    ``"intervals"`` block (``scores(intervals=level)``), each score's column
    is followed by its interval's, ``[low, high]``, subset accuracy's interval
    follows it, and a last line names the level and the methods.
    """
    digits = check_digits(digits, "classification_report")
    block = scores.get("intervals")
    # The columns: the scores each average lists (the registry's report scores), in their order.
    names = tuple(name for name in scores["averages"]["micro"] if name != "support")
    headers: tuple[str, ...] = (*names, "support")
    if block is not None:
        shown = f"{float(block['level']) * 100:g}% CI"
        headers = (*(header for name in names for header in (name, shown)), "support")

    def cells(values: dict[str, Any], bounds: dict[str, Any] | None, support: Any) -> list[str]:
        if block is None:
            return [_number(values[name], digits) for name in names] + [str(support)]
        return [text for name in names for text in (
            _number(values[name], digits),
            _bounds_text(None if bounds is None else bounds.get(name), digits))] + [str(support)]

    categories = scores["categories"]

    def rows() -> Iterator[tuple[str, list[str]]]:
        """Each category's row, made again for each pass (not held: there may be millions)."""
        by_category = (itertools.repeat(None) if block is None
                       else record_dicts(block["categories"]))
        for row, bounds in zip(record_dicts(categories), by_category):
            yield str(row["category"]), cells(row, bounds, row["support"])

    averages: list[tuple[str, list[str]]] = []
    for name, average in scores["averages"].items():
        if average is not None:
            bounds = None if block is None else block.get(name)
            averages.append((f"{name} avg", cells(average, bounds, average["support"])))
    name_width, widths = 12, [len(header) for header in headers]
    for name, texts in itertools.chain(rows(), averages):
        name_width = max(name_width, len(name))
        widths = [max(width, len(text)) for width, text in zip(widths, texts)]

    def line(name: str, cells: Sequence[str]) -> str:
        return (name.rjust(name_width) + "  "
                + "  ".join(cell.rjust(width) for cell, width in zip(cells, widths))).rstrip()

    out = [line("", headers), ""]
    out += [line(name, cells) for name, cells in rows()]
    out += [""] + [line(name, cells) for name, cells in averages] + [""]
    # MCC: scikit-learn's multiclass form (the default of matthews_corrcoef()) where the results
    # are single-label, then the one-vs-rest micro and macro forms.
    mcc = scores["matthews_corrcoef"]
    shown_mcc = [f"{_number(mcc.get(form), digits)} ({form})"
                 for form in ("multiclass", "micro", "macro")
                 if form == "micro" or mcc.get(form) is not None]
    subset = _number(scores["subset_accuracy"], digits)
    if block is not None:
        subset += " " + _bounds_text(block["subset_accuracy"], digits)
    out.append(
        f"results: {scores['n_results']}   "
        f"subset accuracy: {subset}   "
        f"hamming loss: {_number(scores['hamming_loss'], digits)}   "
        f"MCC: {', '.join(shown_mcc)}"
    )
    if block is not None:
        out.append(f"{shown}: Wilson score intervals (a category's F1 through its Jaccard index), "
                   "the delta method for the macro averages; - where none applies (see "
                   "Contingency.interval)")
    return "\n".join(out)


def record_dicts(categories: Records | Sequence[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """The records of a list of them, or of :class:`Records` (made a few thousand at a time)."""
    if not isinstance(categories, Records):
        yield from categories
        return
    keys = (categories.label_key, *categories.keys)
    for start in range(0, len(categories.labels), _RECORDS_PER_PIECE):
        stop = start + _RECORDS_PER_PIECE
        columns = [categories.labels[start:stop], *(
            column[start:stop].tolist() if hasattr(column, "tolist") else list(column[start:stop])
            for column in categories.columns)]
        for values in zip(*columns):
            yield dict(zip(keys, (None if value != value else value for value in values)))


#: The report's sections: a title, then (row name, score key) in :meth:`scores`' names.
_PARTITION_SECTIONS: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    ("pair scores", (
        ("rand index (accuracy)", "rand_index"),
        ("adjusted rand index", "adjusted_rand_index"),
        ("distance", "distance"),
        ("precision", "precision"),
        ("recall", "recall"),
        ("f1", "f1"),
        ("jaccard", "jaccard"),
        ("fowlkes-mallows", "fowlkes_mallows"),
    )),
    ("information scores", (
        ("mutual information", "mutual_information"),
        ("entropy of reference", "entropy_reference"),
        ("entropy of model", "entropy_model"),
        ("variation of information", "variation_of_information"),
        ("homogeneity", "homogeneity"),
        ("completeness", "completeness"),
        ("v-measure", "v_measure"),
    )),
    ("purity and entropy", (
        ("purity", "purity"),
        ("inverse purity", "inverse_purity"),
        ("entropy (R NMF)", "entropy"),
        ("jaccard-concentration", "jaccard_concentration_index"),
    )),
)
#: The scores given once per average method of the two entropies, in this order.
_AVERAGED = (("normalized MI", "normalized_mutual_information"),
             ("adjusted MI", "adjusted_mutual_information"))
_AVERAGE_METHODS = ("arithmetic", "geometric", "min", "max")


def partition_report(scores: dict[str, Any], digits: int = 3) -> str:
    """The counts, the pair confusion and every score of a partition comparison, in sections.

    ``scores`` is :meth:`contingency.PartitionComparison.scores`'s output;
    scores are shown with ``digits`` decimals, counts in full, ``-`` where a
    value is undefined. The last line names the conventions: natural
    logarithms, v-measure's beta, the average methods of normalized and
    adjusted mutual information. A single score left out of ``scores`` is not
    shown (the command line leaves out the Jaccard-concentration index unless
    asked for it). With an ``"intervals"`` block (``scores(intervals=level)``)
    the pair scores that have one show it after their value, ``[low, high]``.
    """
    digits = check_digits(digits, "partition_report")
    # Blocks of rows (name, cells), a blank line between blocks; a row without cells is a
    # title. Names align across the report, cells within their block.
    blocks: list[list[tuple[str, list[str]]]] = [[
        ("pair confusion", ["same model", "different model"]),
        ("same reference", [str(scores["same_same"]), str(scores["same_reference_only"])]),
        ("different reference", [str(scores["same_model_only"]),
                                 str(scores["different_different"])]),
    ]]
    intervals = scores.get("intervals")
    for title, entries in _PARTITION_SECTIONS:
        blocks.append([(title + ":", [])]
                      + [(name, [_number(scores[key], digits)]
                          + ([_bounds_text(intervals[key], digits)]
                             if intervals is not None and key in intervals else []))
                         for name, key in entries if key in scores])
    blocks.append([("entropies averaged by", list(_AVERAGE_METHODS))]
                  + [(name, [_number(scores[key][method], digits) for method in _AVERAGE_METHODS])
                     for name, key in _AVERAGED])
    name_width = max(len(name) for block in blocks for name, cells in block if cells)
    out = [
        f"elements: {scores['n_elements']}   reference clusters: "
        f"{scores['n_reference_clusters']}   model clusters: {scores['n_model_clusters']}   "
        f"pairs: {scores['n_pairs']}",
    ]
    for block in blocks:
        widths = [max(len(cells[i]) for _, cells in block if len(cells) > i)
                  for i in range(max(len(cells) for _, cells in block))]
        out.append("")
        out += [name if not cells else
                name.rjust(name_width) + "".join("  " + cell.rjust(width)
                                                 for cell, width in zip(cells, widths))
                for name, cells in block]
    out += ["", "conventions: natural logarithms (nats); v-measure with beta = 1; normalized and",
            "adjusted MI divide MI by the mean of the two entropies named in each column",
            "(arithmetic is their default); - marks an undefined value."]
    if intervals is not None:
        out += [f"{float(intervals['level']) * 100:g}% confidence intervals in brackets: the delta "
                "method of U-statistics,", "elements taken as independent draws (see "
                "PartitionComparison.interval); - where none applies."]
    return "\n".join(out)


_MCNEMAR = (("exact (binomial)", "exact"), ("mid-p", "mid_p"), ("asymptotic (chi-2)", "asymptotic"))


def _pvalue(value: float | None, digits: int) -> str:
    """A p-value with ``digits`` significant figures (small ones in exponent form), 1 as ``1``."""
    return "-" if value is None else f"{value:.{max(digits, 1)}g}"


def paired_report(scores: dict[str, Any], digits: int = 3,
                  names: tuple[str, str] = ("a", "b")) -> str:
    """Two models' summary scores, their paired table and McNemar's tests, in blocks.

    ``scores`` is :meth:`contingency.PairedComparison.scores`'s output;
    scores and statistics are shown with ``digits`` decimals, p-values with
    ``digits`` significant figures, counts in full, ``-`` where a value is
    undefined. ``names`` name the two models. When ``scores`` holds an
    ``"intervals"`` block (``scores(intervals=level)``), each model's column is
    followed by its intervals', ``[low, high]``, the difference of accuracies
    and its interval follow in a block of their own, and a last line names
    the level and the methods.
    """
    digits = check_digits(digits, "paired_report")
    first, second = check_names(names)
    table = scores["paired_table"]
    intervals = scores.get("intervals")
    models: list[tuple[str, list[str]]]
    if intervals is None:
        models = [("", [f"model {first}", f"model {second}"])] + [
            (key.replace("_", " "), [_number(scores[model][key], digits) for model in ("a", "b")])
            for key in scores["a"]]
    else:
        shown = f"{float(intervals['level']) * 100:g}% CI"
        models = [("", [f"model {first}", shown, f"model {second}", shown])] + [
            (key.replace("_", " "), [text for model in ("a", "b") for text in (
                _number(scores[model][key], digits), _bounds_text(intervals[model].get(key), digits))])
            for key in scores["a"]]
    blocks: list[list[tuple[str, list[str]]]] = [
        models,
        [("paired table", [f"{second} right", f"{second} wrong"]),
         (f"{first} right", [str(table["both_right"]), str(table["only_a_right"])]),
         (f"{first} wrong", [str(table["only_b_right"]), str(table["both_wrong"])])],
        [("McNemar tests", ["statistic", "p-value"])]
        + [(name, [_number(scores["mcnemar"][key]["statistic"], digits),
                   _pvalue(scores["mcnemar"][key]["pvalue"], digits)]) for name, key in _MCNEMAR],
    ]
    if intervals is not None:
        between = intervals["accuracy_difference"]  # None without a result
        blocks.insert(1, [("", [f"{first} - {second}", shown]), ("accuracy difference", [
            _number(None if between is None else between["estimate"], digits),
            _bounds_text(None if between is None else (between["low"], between["high"]),
                         digits)])])
    name_width = max(len(name) for block in blocks for name, _ in block)
    out = [f"results: {scores['n_results']}"]
    for block in blocks:
        widths = [max(len(cells[i]) for _, cells in block) for i in range(len(block[0][1]))]
        out.append("")
        out += [(name.rjust(name_width) + "".join("  " + cell.rjust(width)
                                                  for cell, width in zip(cells, widths))).rstrip()
                for name, cells in block]
    out += ["", "a result is right when its assigned categories are exactly the correct ones; the "
            "tests", "compare the results only one model got right (two-sided); the asymptotic "
            "one has", "Edwards' continuity correction."]
    if intervals is not None:
        out.append(f"{shown}: Wilson score intervals, the delta method for the macro averages, "
                   "Newcombe's method 10 for the accuracy difference; - where none applies (see "
                   "Contingency.interval and PairedComparison.accuracy_difference)")
    return "\n".join(out)


def _columns(rows: Sequence[tuple[str, Sequence[str]]], headers: Sequence[str],
             name_width: int, left: frozenset[int] = frozenset()) -> list[str]:
    """Rows of a name and cells, each cell as wide as its column: names and the columns
    numbered in ``left`` left-aligned, the others right-aligned; a row without cells is blank."""
    widths = [max([len(header)] + [len(cells[i]) for _, cells in rows if len(cells) > i])
              for i, header in enumerate(headers)]

    def line(name: str, cells: Sequence[str]) -> str:
        return (name.ljust(name_width) + "".join(
            (" " if i in left else "  ") + (cell.ljust(width) if i in left else cell.rjust(width))
            for i, (cell, width) in enumerate(zip(cells, widths)))).rstrip()

    return [line(name, cells) if cells else "" for name, cells in rows]


def grouped_report(scores: dict[str, Any], digits: int = 3) -> str:
    """Scores by group and overall, then each score's disparities, then fairlearn's fairness scores.

    ``scores`` is :meth:`contingency.GroupedContingency.scores`'s output;
    numbers are shown with ``digits`` decimals, counts in full, ``-`` where a
    value is undefined. The disparities give each score's least and greatest
    group value with the group where it is reached, then its difference and
    ratio between groups and to the overall value.
    """
    digits = check_digits(digits, "grouped_report")
    names = scores["scores"]
    headers = ["results", *names]
    rows: list[tuple[str, list[str]]] = [("group", headers), ("", [])]
    rows += [(row["label"], [str(row["n_results"])]
              + [_number(row["values"][name], digits) for name in names])
             for row in scores["groups"]]
    rows += [("", []), ("overall", [str(scores["n_results"])]
                        + [_number(scores["overall"][name], digits) for name in names])]
    name_width = max(len(name) for name, _ in rows)
    out = _columns(rows, headers, name_width)  # the first row's cells are the column names
    disparities = scores["disparities"]
    if disparities:
        titles = ["min", "group", "max", "group", "difference", "to overall", "ratio",
                  "to overall"]
        table: list[tuple[str, list[str]]] = [("disparity", titles), ("", [])]
        for entry in disparities:
            table.append((entry["score"], [
                _number(entry["min"], digits), entry["min_label"],
                _number(entry["max"], digits), entry["max_label"],
                _number(entry["difference"]["between_groups"], digits),
                _number(entry["difference"]["to_overall"], digits),
                _number(entry["ratio"]["between_groups"], digits),
                _number(entry["ratio"]["to_overall"], digits)]))
        width = max(len(name) for name, _ in table)
        out += ["", *_columns(table, titles, width, frozenset({1, 3}))]
    fairness = scores.get("fairness")
    if fairness:
        title = f"fairness of category {fairness['pos_label']} (fairlearn's names)"
        methods = ["between groups", "to overall"]
        table = [(title, methods)] + [
            (name, [_number(values[method], digits) for method in ("between_groups", "to_overall")])
            for name, values in fairness.items() if name != "pos_label"]
        width = max(len(name) for name, _ in table)
        out += ["", *_columns(table, methods, width)]
    return "\n".join(out)


_THRESHOLD_ROWS = (("roc auc", "roc_auc"), ("average precision", "average_precision"),
                   ("brier score", "brier_score"), ("log loss", "log_loss"))


def threshold_report(scores: dict[str, Any], digits: int = 3) -> str:
    """The counts and scores of a scored binary stream, with the binned bounds where they apply.

    ``scores`` is :meth:`contingency.ThresholdContingency.scores`'s output;
    ``-`` marks an undefined value. In binned mode the AUC shows its bound
    (``± b``) and average precision the interval its exact value lies in.
    """
    digits = check_digits(digits, "threshold_report")
    binned = scores["bins"] is not None
    mode = f"{scores['bins']} bins" if binned else "exact"
    rows: list[tuple[str, str]] = []
    for name, key in _THRESHOLD_ROWS:
        if key not in scores:
            continue
        cell = _number(scores[key], digits)
        if binned and key == "roc_auc" and scores[key] is not None:
            cell += f" ± {scores['roc_auc_bound']:.{digits}f}"
        if binned and key == "average_precision" and scores[key] is not None:
            cell += " in " + _bounds_text(scores["average_precision_bounds"], digits)
        rows.append((name, cell))
    width = max(len(name) for name, _ in rows)
    out = [f"results: {scores['n_results']}   positives: {scores['positives']}   "
           f"negatives: {scores['negatives']}   thresholds: {scores['thresholds']} ({mode})", ""]
    out += [f"{name.rjust(width)}  {cell}" for name, cell in rows]
    return "\n".join(out)


def multiclass_threshold_report(scores: dict[str, Any], digits: int = 3) -> str:
    """The averaged and per-class scores of K classes' score columns, as text.

    ``scores`` is :meth:`contingency.MulticlassThresholdContingency.scores`'s
    output: the one-vs-rest ROC AUC and average precision by average, the
    top-1 accuracy, then each class's positive weight, AUC and average
    precision; ``-`` marks an undefined value, ``± b`` a binned AUC's bound.
    """
    digits = check_digits(digits, "multiclass_threshold_report")
    binned = scores["bins"] is not None
    mode = f"{scores['bins']} bins" if binned else "exact"
    averages = ["macro", "weighted", "micro"]

    def auc(value: float | None, bound: float | None) -> str:
        cell = _number(value, digits)
        return cell + (f" ± {bound:.{digits}f}" if binned and value is not None
                       and bound is not None else "")

    summary: list[tuple[str, Sequence[str]]] = [
        ("roc auc", [auc(scores[f"roc_auc_{a}"], scores.get(f"roc_auc_bound_{a}")) for a in averages]),
        ("average precision", [_number(scores[f"average_precision_{a}"], digits) for a in averages]),
    ]
    width = max(len(name) for name, _ in summary)
    out = [f"results: {scores['n_results']}   classes: {scores['classes']} ({mode})", ""]
    out += [" " * width + "".join(f"  {a.rjust(max(len(a), len(c)))}" for a, c in zip(
        averages, summary[0][1]))]
    out += _columns([(name.rjust(width), cells) for name, cells in summary], averages, width)
    if "top_1_accuracy" in scores:
        out.append(f"{'top-1 accuracy'.rjust(width)}  {_number(scores['top_1_accuracy'], digits)}")
    headers = ["positives", "roc auc", "average precision"]
    rows = [(str(row["class"]), [str(row["positives"]), auc(row["roc_auc"], row["roc_auc_bound"]),
                                 _number(row["average_precision"], digits)])
            for row in scores["per_class"]]
    name_width = max([len("class")] + [len(name) for name, _ in rows])
    out += ["", *_columns([("class", headers), *rows], headers, name_width)]
    return "\n".join(out)
