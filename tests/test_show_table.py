"""The show table shipped with the package (`cribcore/show_totals.bin`) is a cache of the scorer's own
definition of fifteens, pairs and runs: equal to it, read in one go, and never needed for a right count."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from cribcore import scoring
from cribcore.cards import parse_card, parse_cards
from cribcore.scoring import show_items, show_total


def test_the_shipped_file_is_what_the_scorer_works_out() -> None:
    shipped = Path(scoring.__file__).with_name(scoring._TABLE_FILE).read_bytes()
    computed = scoring._computed_table()
    assert shipped == scoring._table_bytes(computed)
    assert scoring._read_table() == computed
    # Every multiset of a standard show (four cards and the starter) and of five-card's (three and it).
    assert len(computed) == 6175 + 1820


def test_the_table_file_lists_each_multiset_by_its_key() -> None:
    table = scoring._computed_table((5,))
    # 5 5 5 J + the 5: eight fifteens and six pairs; A 2 3 4 5: one fifteen and a run of five.
    assert table[scoring._rank_key((5, 5, 5, 5, 11))] == 28
    assert table[scoring._rank_key((1, 2, 3, 4, 5))] == 7
    assert table[scoring._rank_key((1, 1, 1, 1, 2))] == 12


def test_without_the_file_every_total_is_still_worked_out() -> None:
    code = (
        "import cribcore.scoring as s, itertools;"
        "s._TABLE_FILE = 'missing.bin';"
        "from cribcore.cards import parse_cards, parse_card;"
        "assert s.show_total(parse_cards('5H 5D 5C JS'), parse_card('5S')) == 29;"
        "assert len(s._RANK_TOTALS) == 1"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_a_total_read_from_the_file_equals_the_itemized_count() -> None:
    for hand, starter in (("5H 5D 5C JS", "5S"), ("AH 2H 3H 4H", "5H"), ("TD QC KS 9H", "2C")):
        cards, cut = parse_cards(hand), parse_card(starter)
        assert show_total(cards, cut) == sum(item.points for item in show_items(cards, cut))
