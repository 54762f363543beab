#!/usr/bin/env python3
"""Regenerate nmf.json: the R package NMF's purity and entropy of seeded random clusterings.

The cases (the hand-picked edges, then seeded draws) are built here, written to
``Rscript nmf.R`` (one case per line) and stored with R's answers, so that the test
recomputes our side from the stored inputs. Needs ``Rscript`` with the NMF package
(Debian: ``apt-get install r-base-core r-cran-nmf``). Run from the repository root::

    python tests/golden/nmf/generate.py
"""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path

HERE = Path(__file__).resolve().parent
SEED = 20
COUNT = 60


def cases() -> list[dict[str, list[int]]]:
    edges = [
        ([1, 1, 2, 2, 2, 2], [1, 1, 1, 2, 2, 3]),  # the guide's example
        ([1], [1]),
        ([1, 2, 3], [1, 1, 1]),  # one class: R's entropy divides by log2(1) = 0
        ([1, 1, 1], [1, 2, 3]),  # one cluster
        ([1, 2, 3, 4], [1, 2, 3, 4]),
        ([5, 5, 7, 7], [1, 2, 1, 2]),
    ]
    out = [{"clusters": clusters, "classes": classes} for clusters, classes in edges]
    rng = random.Random(SEED)
    for _ in range(COUNT):
        n = rng.randint(1, 40)
        k_clusters, k_classes = rng.randint(1, 6), rng.randint(1, 6)
        out.append({"clusters": [rng.randint(1, k_clusters) for _ in range(n)],
                    "classes": [rng.randint(1, k_classes) for _ in range(n)]})
    return out


def run_r(expression: str) -> str:
    return subprocess.run(["Rscript", "-e", expression], check=True, capture_output=True,
                          text=True).stdout.strip()


def main() -> None:
    todo = cases()
    lines = "".join(f"{','.join(map(str, c['clusters']))};{','.join(map(str, c['classes']))}\n"
                    for c in todo)
    answers = subprocess.run(["Rscript", str(HERE / "nmf.R")], input=lines, check=True,
                             capture_output=True, text=True).stdout.splitlines()
    assert len(answers) == len(todo)
    for case, answer in zip(todo, answers):
        case["purity"], case["entropy"] = answer.split(";")
    golden = {
        "r_version": run_r("cat(R.version.string)"),
        "nmf_version": run_r("cat(as.character(packageVersion('NMF')))"),
        "seed": SEED,
        "note": "Each case: the clustering (R's x) and the known classes (R's y), and R's "
                "purity(x, y) and entropy(x, y) printed with %.17g (NaN where R gives NaN).",
        "cases": todo,
    }
    # One case per line: a diff of a regenerated file shows which cases changed.
    header = json.dumps({key: value for key, value in golden.items() if key != "cases"},
                        indent=1)[:-2]
    body = ",\n".join("  " + json.dumps(case) for case in todo)
    (HERE / "nmf.json").write_text(f'{header},\n "cases": [\n{body}\n ]\n}}\n',
                                   encoding="utf-8")


if __name__ == "__main__":
    main()
