"""The suite's command line: ``python -m tests.benchmarks [--quick] [--json PATH] [--only SUBSTRING]``."""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import time
import traceback
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

from tests.benchmarks.cases import CASES, ROOT, Config
from tests.benchmarks.harness import Row, format_table

__all__ = ["main"]

_PACKAGES = ("contingency", "numpy", "attrs", "scikit-learn", "river",
             "jaccard-concentration-index")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m tests.benchmarks",
        description="Time contingency against scikit-learn, river, the PyPI JCI package and "
                    "Perl's Statistics::Contingency, and against the floor of the machine.")
    parser.add_argument("--quick", action="store_true",
                        help="smaller sizes and fewer rounds (a couple of minutes)")
    parser.add_argument("--json", metavar="PATH", type=Path,
                        help="also write the rows and the machine description as JSON")
    parser.add_argument("--only", metavar="SUBSTRING", action="append", default=[],
                        help="run only the cases whose name contains SUBSTRING "
                             "(case-insensitive; repeatable)")
    parser.add_argument("--list", action="store_true", help="list the case names and exit")
    return parser


def _version(package: str) -> str | None:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def _git(*arguments: str) -> str:
    try:
        done = subprocess.run(["git", *arguments], cwd=ROOT, capture_output=True, text=True,
                              check=False)
    except OSError:  # no git here
        return ""
    return done.stdout.strip()


def _perl() -> str | None:
    try:
        done = subprocess.run(["perl", "-MStatistics::Contingency", "-e",
                               "print qq{perl $^V, Statistics::Contingency "
                               "$Statistics::Contingency::VERSION}"],
                              capture_output=True, text=True, check=False)
    except OSError:  # no perl here
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def _machine() -> dict[str, Any]:
    return {
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "cpus": os.cpu_count(),
        "python": sys.version.split()[0],
        "packages": {name: _version(name) for name in _PACKAGES},
        "perl": _perl(),
        "commit": _git("rev-parse", "--short", "HEAD"),
        "package_files_changed_since_commit": bool(_git("status", "--porcelain",
                                                        "contingency")),
    }


def main(argv: Sequence[str] | None = None) -> int:
    options = _parser().parse_args(argv)
    wanted = [text.lower() for text in options.only]
    cases = [case for case in CASES
             if not wanted or any(text in case.name.lower() for text in wanted)]
    if options.list:
        print("\n".join(case.name for case in CASES))
        return 0
    if not cases:
        print(f"no case matches {options.only}; --list shows them", file=sys.stderr)
        return 2
    config = Config.quick_run() if options.quick else Config.full()
    started = time.perf_counter()
    started_at = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    load_before = os.getloadavg()
    machine = _machine()
    rows: list[Row] = []
    for number, case in enumerate(cases, 1):
        print(f"[{number}/{len(cases)}] {case.name} ...", file=sys.stderr, flush=True)
        begun = time.perf_counter()
        try:
            rows += case.run(config)
        except Exception as error:  # one failing case must not hide the others' figures
            traceback.print_exc(file=sys.stderr)
            rows.append(Row(case.name, "", "s", status_override="ERROR",
                            notes=f"{type(error).__name__}: {error}"))
        print(f"    {time.perf_counter() - begun:.1f} s", file=sys.stderr, flush=True)
    duration = time.perf_counter() - started
    load_after = os.getloadavg()
    command = " ".join(["python -m tests.benchmarks", *(sys.argv[1:] if argv is None else argv)])
    print(format_table(rows))
    print(f"\n{'quick' if options.quick else 'full'} run, {duration:.0f} s; load average "
          f"(1 min) {load_before[0]:.2f} before, {load_after[0]:.2f} after, on {os.cpu_count()} CPUs; "
          f"commit {machine['commit']}"
          + (" with uncommitted changes in contingency/"
             if machine["package_files_changed_since_commit"] else ""))
    mismatches = [row for row in rows if row.status in ("MISMATCH", "ERROR")]
    for row in mismatches:
        print(f"!!! {row.status}: {row.operation} ({row.size}): {row.check or row.notes}")
    if options.json is not None:
        options.json.parent.mkdir(parents=True, exist_ok=True)
        options.json.write_text(json.dumps({
            "command": command,
            "quick": options.quick,
            "started": started_at,
            "duration_s": round(duration, 1),
            "load_average_before": load_before,
            "load_average_after": load_after,
            "machine": machine,
            "rows": [row.to_json() for row in rows],
            "table": format_table(rows),
        }, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return 1 if mismatches else 0
