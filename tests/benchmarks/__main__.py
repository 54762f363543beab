"""``python -m tests.benchmarks``: run the benchmark suite (see tests/benchmarks/__init__.py)."""

from tests.benchmarks.run import main

raise SystemExit(main())
