"""The compiled core: fastscore's numba kernels (numba and numpy only: no pyarrow, no message text).

The Python side (columns, messages, results, files) lives in the modules
above; these take plain arrays and return codes.  Bottom up:

- ``bits``: bit counts, an unaligned 64-bit load and a prefetch hint, as single machine instructions.
- ``codegen``: compiled functions generated from a list of functions (the row evaluators).
- ``decompose``: the shapes of a hand (LRC rules section 3), read from the per-suit tables.
- ``wait_shapes``: the waits of a 16-tile hand (section 7): which kinds complete it.
- ``features``: the feature record of one interpretation of a win, what the rows read.
- ``rows``: one predicate per scoring row (section 4) and the one registry of rows.
- ``evaluate``: replacement and the section 6 totals, generic over the rows.
- ``checks``: the row check every batch kernel runs on each row (its messages: :mod:`fastscore.checks`).
- ``score``: every interpretation of a hand, scored.
- ``batch_loops``: the scoring and win-check batch kernels, a row loop per block of hands.
- ``waits``: the waits batch kernel: each completing tile, with both payouts (section 7).
- ``single``: one hand through the batch kernels' code, from Python or the caller's numba code.
- ``layout``: results laid out for the output columns (row points by row id; nonzero entries row by row).
- ``parse``: the notation parser, reading hand records straight from Arrow buffers' bytes
  (:mod:`fastscore.arrow` hands them over).

Importing this package imports none of them (nothing is compiled until a kernel is first called).
"""
