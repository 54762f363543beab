"""``python -m contingency``: see :mod:`contingency.cli`."""

from contingency.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
