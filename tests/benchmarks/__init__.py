"""The benchmark suite of issue 5: ours against the peers and the floor of the machine, in one run.

Run it from the repository root::

    python -m pip install -e ".[bench]"
    python -m tests.benchmarks --json docs/benchmarks.json

``--quick`` for a short run, ``--only SUBSTRING`` for some cases, ``--list``
for their names. pytest does not collect it (``norecursedirs``), and no file
here is named ``test_*``. docs/performance.md explains every figure.
"""
