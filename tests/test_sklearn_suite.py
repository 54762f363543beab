"""scikit-learn's own tests of confusion_matrix, cohen_kappa_score, precision_recall_fscore_support
and multilabel_confusion_matrix, run on thin adapters over Contingency's public API.

The installed scikit-learn's ``sklearn/metrics/tests/test_classification.py``
is loaded as a module; in its namespace the scikit-learn functions under test
are replaced by the adapters below, each of which builds
``Contingency.from_labels(y_true, y_pred, sample_weight=...)``, calls our
methods and shapes their results as scikit-learn returns them, computing no
score itself. The selected tests (those whose names match ``SELECTED``) are
run here with their own parameters, each case a pytest parameter of
:func:`test_scikit_learn`, with the module's warning filters.

A case that cannot pass is listed in ``KNOWN`` with the reason, as a strict
``xfail`` (an unexpected pass fails the run, so the list cannot go stale);
one that fails only until another part of issue 20 lands, in ``PENDING``
(non-strict: delete its entry once it passes). ``NOT_RUN`` names the one
selected test left out, with the reason, and ``FILTERS`` a warning filter
that scikit-learn's own configuration implies.
"""

from __future__ import annotations

import functools
import importlib.util
import inspect
import itertools
import math
import re
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import sklearn

from contingency import Contingency

_PATH = Path(sklearn.__file__).parent / "metrics" / "tests" / "test_classification.py"
_SPEC = importlib.util.spec_from_file_location("_sklearn_test_classification", _PATH)
assert _SPEC is not None
assert _SPEC.loader is not None
suite = importlib.util.module_from_spec(_SPEC)
with warnings.catch_warnings():
    # scikit-learn's conftest registers its "thread_unsafe" mark, on a test not run here.
    warnings.filterwarnings("ignore", category=pytest.PytestUnknownMarkWarning)
    _SPEC.loader.exec_module(suite)

#: The tests run: every test whose name mentions one of the functions under test (or
#: precision, recall and F-scores by another of their names, or pos_label); of a test
#: parametrised by metric, the cases of the functions under test.
SELECTED = re.compile(r"confusion_matrix|cohen_kappa|precision_re|prf_|fscore|f1_|pos_label|"
                      r"(precision|recall)_warnings|zero_precision_recall|zero_division_nan")
#: Selected by name, but not run, with the reason.
NOT_RUN = {
    "test_confusion_matrix_array_api": "it tests scikit-learn's array API dispatch (torch, CuPy, "
                                       "array-api-strict... arrays, SCIPY_ARRAY_API set), which "
                                       "the accumulator does not offer: it takes numpy arrays",
}


# The adapters ------------------------------------------------------------------------------------


def _mode(zero_division: Any) -> Any:
    """scikit-learn's ``zero_division`` (or ``replace_undefined_by``) as ours.

    ``"warn"`` is scikit-learn's 0.0 with a warning; the accumulator does not
    warn, so it is 0.0.
    """
    if isinstance(zero_division, str) and zero_division == "warn":
        return 0.0
    return "nan" if math.isnan(zero_division) else float(zero_division)


def _counted(y_true: Any, y_pred: Any, sample_weight: Any = None, zero_division: Any = 0.0,
             labels: Any = None) -> Contingency:
    """The accumulator of the results. scikit-learn's ``labels`` may name labels no result
    names, which count as categories with empty tables: they are declared (label arrays
    only; the categories of indicator matrices are their columns)."""
    categories = list(labels) if labels is not None and np.ndim(y_true) == 1 else None
    return Contingency.from_labels(y_true, y_pred, categories=categories, unknown="add",
                                   sample_weight=sample_weight, zero_division=_mode(zero_division))


def confusion_matrix(y_true, y_pred, *, labels=None, sample_weight=None, normalize=None):
    s = _counted(y_true, y_pred, sample_weight, labels=labels)
    return s.confusion_matrix(labels, normalize=normalize)


def multilabel_confusion_matrix(y_true, y_pred, *, sample_weight=None, labels=None,
                                samplewise=False):
    s = _counted(y_true, y_pred, sample_weight, labels=labels)
    return s.multilabel_confusion_matrix(labels, samplewise=samplewise)


def cohen_kappa_score(y1, y2, *, labels=None, weights=None, sample_weight=None,
                      replace_undefined_by=np.nan):
    s = _counted(y1, y2, sample_weight, replace_undefined_by, labels)
    return s.cohen_kappa(labels, weights=weights)


def precision_recall_fscore_support(y_true, y_pred, *, beta=1.0, labels=None, pos_label=1,
                                    average=None, warn_for=(), sample_weight=None,
                                    zero_division="warn"):
    s = _counted(y_true, y_pred, sample_weight, zero_division, labels)
    options = {"pos_label": pos_label, "labels": labels}
    scores = (s.precision(average, **options), s.recall(average, **options),
              s.f_beta(beta, average, **options))
    if average is not None:
        return (*scores, None)
    stats = s.category_stats()
    support = [stats[label]["support"] for label in (s.categories if labels is None else labels)]
    return (*scores, np.array(support))


def precision_score(y_true, y_pred, *, labels=None, pos_label=1, average="binary",
                    sample_weight=None, zero_division="warn"):
    s = _counted(y_true, y_pred, sample_weight, zero_division, labels)
    return s.precision(average, pos_label=pos_label, labels=labels)


def recall_score(y_true, y_pred, *, labels=None, pos_label=1, average="binary",
                 sample_weight=None, zero_division="warn"):
    s = _counted(y_true, y_pred, sample_weight, zero_division, labels)
    return s.recall(average, pos_label=pos_label, labels=labels)


def f1_score(y_true, y_pred, *, labels=None, pos_label=1, average="binary", sample_weight=None,
             zero_division="warn"):
    s = _counted(y_true, y_pred, sample_weight, zero_division, labels)
    return s.f1(average, pos_label=pos_label, labels=labels)


def fbeta_score(y_true, y_pred, *, beta, labels=None, pos_label=1, average="binary",
                sample_weight=None, zero_division="warn"):
    s = _counted(y_true, y_pred, sample_weight, zero_division, labels)
    return s.f_beta(beta, average, pos_label=pos_label, labels=labels)


ADAPTERS = {function.__name__: function for function in (
    confusion_matrix, multilabel_confusion_matrix, cohen_kappa_score,
    precision_recall_fscore_support, precision_score, recall_score, f1_score, fbeta_score)}
_ORIGINALS = {id(getattr(suite, name)): adapter for name, adapter in ADAPTERS.items()}
for _name, _adapter in ADAPTERS.items():
    setattr(suite, _name, _adapter)


# The cases ---------------------------------------------------------------------------------------


def _adapted(value: Any) -> Any:
    """A parameter value with scikit-learn's functions under test replaced by the adapters (the
    module's parameter lists were made before the namespace was patched)."""
    if id(value) in _ORIGINALS:
        return _ORIGINALS[id(value)]
    if isinstance(value, functools.partial) and id(value.func) in _ORIGINALS:
        return functools.partial(_ORIGINALS[id(value.func)], *value.args, **value.keywords)
    return value


def _shown(value: Any, name: str, index: int) -> str:
    if isinstance(value, (str, int, float, bool)) or value is None:
        return str(value)
    if callable(value):
        inner = value.func if isinstance(value, functools.partial) else value
        return getattr(inner, "__name__", f"{name}{index}")
    return f"{name}{index}"


_PARAMETER_SET = type(pytest.param(None))


def _expanded(function: Any) -> list[tuple[dict[str, Any], str]]:
    """Every combination of the function's parametrize marks: (keyword arguments, id)."""
    cases: list[tuple[dict[str, Any], str]] = [({}, "")]
    for mark in getattr(function, "pytestmark", []):
        if mark.name != "parametrize":
            continue
        names, values = mark.args[0], mark.args[1]
        names = [n.strip() for n in names.split(",")] if isinstance(names, str) else list(names)
        ids = mark.kwargs.get("ids")
        options = []
        for index, value in enumerate(values):
            if isinstance(value, _PARAMETER_SET):
                assert not value.marks, f"{function.__name__}: a parameter with marks"
                value_id, value = value.id, value.values
            else:
                value_id, value = None, (value,) if len(names) == 1 else value
            given = dict(zip(names, map(_adapted, value)))
            if value_id is None:
                value_id = (ids[index] if isinstance(ids, (list, tuple)) else "-".join(
                    _shown(v, n, index) for n, v in given.items()))
            options.append((given, value_id))
        cases = [({**before, **after}, "-".join(filter(None, (after_id, before_id))))
                 for (after, after_id), (before, before_id) in itertools.product(options, cases)]
    parameters = set(inspect.signature(function).parameters)
    for kwargs, case_id in cases:
        assert set(kwargs) == parameters, f"{function.__name__}[{case_id}] needs a fixture"
    return cases


def _warning_marks(function: Any) -> list[Any]:
    """The function's own warning filters, which its cases keep."""
    return [pytest.mark.filterwarnings(*mark.args) for mark in getattr(function, "pytestmark", [])
            if mark.name == "filterwarnings"]

#: Warning filters added to a test's own: scikit-learn runs this one with average=None and a
#: pos_label, which both libraries warn of; its test configuration does not make the warning an
#: error, as ours does.
FILTERS = {"test_classification_metric_pos_label_types":
           r"ignore:.* pos_label=.* plays no part unless average='binary':UserWarning"}

_WARNING = ("the accumulator does not warn of undefined values: zero_division decides each "
            "one, and the adapters pass scikit-learn's 'warn' as its value, 0.0")
_WORDS = ("errors and warnings are worded in our words, naming the argument (the same cases "
          "are refused or warned of); the test matches scikit-learn's text")
_ABSENT = ("labels that no result has as correct category count as categories with empty rows "
           "(zero rows; an undefined kappa, which zero_division gives), where scikit-learn "
           "refuses them; an empty labels list gives an empty matrix")

#: Each case that cannot pass, with the reason ("name" for all of a test's cases,
#: "name[id]" for one): a strict xfail.
KNOWN: dict[str, str] = {
    "test_cohen_kappa_score_error_wrong_label": _ABSENT,
    "test_cohen_kappa_zero_division_warning": _WARNING,
    "test_confusion_matrix_dtype": (
        "counts are exact: a boolean weight is refused, whole float weights count as integers "
        "(int64 where scikit-learn gives float64), and a count past 2**63 - 1 is refused where "
        "the test asserts int64 wrap-around (-2)"),
    "test_confusion_matrix_error": _ABSENT,
    "test_confusion_matrix_single_label": "the accumulator does not warn that one label was found",
    "test_fscore_warnings[warn]": _WARNING,
    "test_multilabel_confusion_matrix_errors": (
        f"{_WORDS}; a 2-d sample_weight is a TypeError; and lists of equal-length rows of "
        "labels other than 0 and 1 are read as label sets (documented in from_labels), where "
        "scikit-learn refuses them as multiclass-multioutput"),
    "test_multilabel_confusion_matrix_multilabel": (
        "from_labels takes no scipy sparse matrices, and samplewise=True needs each result's "
        "own table, which an accumulator of counts does not keep"),
    "test_precision_recall_f1_no_labels_average_none_warn": _WARNING,
    "test_precision_recall_f1_no_labels_check_warnings": _WARNING,
    "test_precision_recall_f1_score_binary_averaged": (
        "weighted averages are correctly rounded (docs/guarantees.md): the test asserts "
        "equality with numpy's float average, a unit in the last place away here"),
    "test_precision_recall_f1_score_multiclass": (
        "average='samples' is defined for any results (on single-label results, the share "
        "right), where scikit-learn refuses it on multiclass input"),
    "test_precision_recall_f_extra_labels": (
        "average='samples' over a subset of the categories needs each result's own categories, "
        "which an accumulator of counts does not keep (ValueError saying so)"),
    "test_precision_recall_f_unused_pos_label": _WORDS,
    "test_precision_warnings[warn]": _WARNING,
    "test_prf_average_binary_data_non_binary": _WORDS,
    "test_prf_warnings": _WARNING,
    "test_recall_warnings[warn]": _WARNING,
    "test_zero_division_nan_warning": _WARNING,
}
#: Cases that fail only until another part of issue 20 lands: a non-strict xfail.
PENDING: dict[str, str] = {}

_NAMES = sorted(name for name in vars(suite) if name.startswith("test_") and SELECTED.search(name)
                and name not in NOT_RUN)
_CASES = []
_MATCHED: set[str] = set()
for _test in _NAMES:
    _function = getattr(suite, _test)
    for _kwargs, _id in _expanded(_function):
        if any(getattr(value, "__module__", "").startswith("sklearn.")
               for value in _kwargs.values() if callable(value)):
            continue  # a case of another scikit-learn function than those under test
        _full = f"{_test}[{_id}]" if _id else _test
        _marks = _warning_marks(_function)
        if _test in FILTERS:
            _marks.append(pytest.mark.filterwarnings(FILTERS[_test]))
        for _table, _strict in ((KNOWN, True), (PENDING, False)):
            for _key in (_full, _test):
                if _key in _table:
                    _MATCHED.add(_key)
                    _marks.append(pytest.mark.xfail(strict=_strict, reason=_table[_key]))
        _CASES.append(pytest.param(_function, _kwargs, id=_full, marks=_marks))


@pytest.mark.parametrize(("function", "kwargs"), _CASES)
def test_scikit_learn(function: Any, kwargs: dict[str, Any]) -> None:
    function(**kwargs)


def test_the_suite_calls_the_adapters():
    for name, adapter in ADAPTERS.items():
        assert getattr(suite, name) is adapter


def test_the_lists_name_tests_of_the_suite():
    """No entry of KNOWN, PENDING, NOT_RUN or FILTERS is stale (an xfail no case carries...)."""
    assert set(KNOWN) | set(PENDING) <= _MATCHED
    assert all(callable(getattr(suite, name, None)) for name in (*NOT_RUN, *FILTERS))
