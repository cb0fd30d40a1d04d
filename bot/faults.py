"""The fault seams a drill or a test installs around the bot (``bot.config.Faults``, the FAULT_*
settings): nothing here runs unless the composition root was given faults to inject.

- the storage's: ``Storage.open(..., faults=)`` wraps the database in ``SlowBackend``
  (``bot/storage/backends/faults.py``), which waits before every read and write;
- the table store's: :class:`SaveErrors`, the ``save_fault`` of ``TableStore``, fails table saves.
"""

from __future__ import annotations

from bot.config import Faults


class SaveErrors:
    """Every table save fails while ``faults.save_error`` says so: ``storage`` as a failing
    database does (the action is refused and nothing changes), ``unexpected`` as a bug would (the
    error reaches the caller). Read at every save, so the holder of ``faults`` may change it."""

    def __init__(self, faults: Faults) -> None:
        self.faults = faults

    def before_save(self) -> None:
        if self.faults.save_error == "unexpected":
            raise RuntimeError("injected fault (FAULT_SAVE_ERROR=unexpected)")

    def during_save(self) -> None:
        if self.faults.save_error == "storage":
            raise OSError("disk I/O error (injected: FAULT_SAVE_ERROR=storage)")
