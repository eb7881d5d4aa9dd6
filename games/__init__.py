"""Pure rules engines and bot policies. Nothing here does I/O, reads a clock or uses global randomness."""
