"""Every table the computer uses for a profile, to build ahead of play (``cribbage tables build``).

Under the standard profile every table ships with cribcore. Another profile may need its own:

- the crib table (`cribcore.players.crib`) when its crib does not count as the standard crib;
- the pegging table (`cribcore.players.pegtable`) when its play is not the standard one (two seats
  keeping four);
- the expert's win table (`cribcore.players.wintable_build`) for any other profile of two seats the model
  fits.

`tables_for` lists them with whether each is built; `TableStep.build` computes one and keeps it in the
data directory, where games find it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..rulebook import Rulebook
from . import crib, pegtable, wintable, wintable_build
from .tablefiles import Progress, kind_name

__all__ = ["TableStep", "prepare", "tables_for"]


@dataclass(frozen=True, slots=True)
class TableStep:
    """One table a profile needs: its kind, how much work building it is (in the units its progress
    counts), whether it is kept whole already, and how to build it."""

    kind: str
    total: int
    kept: Callable[[], bool]
    build: Callable[[int, str | None, Progress], None]
    """``build(jobs, dask, progress)``."""

    @property
    def name(self) -> str:
        """The kind of table in words."""
        return kind_name(self.kind)


def tables_for(book: Rulebook) -> list[TableStep]:
    """The tables ``book``'s profile needs beyond the shipped ones, in the order they are built (the
    win table's games use the other two)."""
    steps = []
    if not crib.uses_shipped_crib(book):
        steps.append(
            TableStep(
                "crib",
                crib.CRIB_SAMPLES,
                lambda: crib.crib_table_kept(book),
                lambda jobs, dask, progress: crib.build_crib_table(book, progress=progress),
            )
        )
    if pegtable.fits(book) and not book.is_standard_play:
        steps.append(
            TableStep(
                "peg",
                len(pegtable.KEYS),
                lambda: pegtable.peg_table_kept(book),
                lambda jobs, dask, progress: pegtable.build_peg_table(
                    book, jobs=jobs, dask=dask, progress=progress
                ),
            )
        )
    if wintable.supports(book) is None and book.fingerprint != wintable.shipped_fingerprint():

        def build_win(jobs: int, dask: str | None, progress: Progress) -> None:
            wintable_build.build_win_table(book, jobs=jobs, dask=dask, progress=progress)

        steps.append(
            TableStep("win", wintable.FIRST_USE_DEALS, lambda: wintable.win_table_kept(book), build_win)
        )
    return steps


def prepare(book: Rulebook, levels: Sequence[str]) -> None:
    """Have at hand, in this process and the data directory, the tables that the computer ``levels``
    use under ``book``'s profile (built on first use as a game would, with its notice and progress
    bar): before local worker processes start, so that they read the tables rather than each build
    them."""
    if not {"hard", "expert"} & set(levels):
        return
    crib.crib_table_for(book)
    if pegtable.fits(book):
        pegtable.peg_table_for(book)
    if "expert" in levels and wintable.supports(book) is None:
        wintable_build.win_table_for(book)
