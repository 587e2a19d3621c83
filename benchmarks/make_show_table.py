"""Generate ``cribcore/show_totals.bin``: the show's fifteens, pairs and runs by multiset of ranks, the
table `cribcore.scoring.show_total` reads in one go instead of working each multiset out when first met.

The numbers come from `cribcore.scoring`'s own definition of those combinations, so the file is a cache of
it (a test checks that they are equal). Run after changing that definition:
``python benchmarks/make_show_table.py`` (well under a second).
"""

from __future__ import annotations

from pathlib import Path

from cribcore import scoring

OUT = Path(scoring.__file__).resolve().with_name(scoring._TABLE_FILE)


def main() -> int:
    table = scoring._computed_table()
    OUT.write_bytes(scoring._table_bytes(table))
    print(f"{OUT}: {len(table)} multisets of {', '.join(map(str, scoring._TABLE_SIZES))} ranks")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
