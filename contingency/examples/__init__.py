"""The bundled example data: ``digits.csv`` (see docs/cli.md and scripts/make_example_data.py)."""
