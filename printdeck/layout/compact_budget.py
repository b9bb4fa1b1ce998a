"""How long a card's compaction runs: the most linear programs and the least gain a step
must make to go on, for round cards and for polygon ones (square, rectangular, hexagonal).

A module of its own, with no imports, so that the layout settings (read by every build,
also one that takes the whole deck from the cache) and the packer's
:class:`~printdeck.layout.packing.PackInput` share these numbers without the settings
loading the packer. Why these values: bench/RESULTS.md (per-card compaction budgets).
"""

COMPACT_STEPS = 12
"""Most linear programs a round card's compaction takes."""
POLYGON_COMPACT_STEPS = 16
"""The same on square, rectangular and hexagonal cards (their corners fill late)."""
COMPACT_MIN_GAIN = 0.003
"""A round card stops compacting once a step gains less ink than this share of its zone."""
POLYGON_COMPACT_MIN_GAIN = 0.0015
"""The same on polygon cards (gains there come slower)."""
