"""League nights (issue 25): the evening's tables. `pods` is the pure optimiser (no Django)."""
