"""Pure functions of counts: every score the accumulators report is computed here, once."""
