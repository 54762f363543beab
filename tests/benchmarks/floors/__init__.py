"""Hand-written floors of the grouped rows 138 and 147 (issue 30, item 2), run by hand: see README.md."""
