"""The win check alone over a batch, for tests: :data:`fastscore.kernel.win_check_kernel` after the row checks."""

from __future__ import annotations

import numpy as np

from fastscore.checks import checked
from fastscore.kernel import win_check_kernel
from fastscore.tables import suit_tables


def win_check(batch) -> np.ndarray:
    """``(N,) bool``: hand i (16 tiles + ``win``) completes some shape; flagged rows are False."""
    batch = checked(batch, require_win=True)
    out = np.zeros(len(batch), dtype=np.bool_)
    win_check_kernel(batch.concealed, batch.declared, batch.win, batch.error == 0, suit_tables()[0], out)
    return out
