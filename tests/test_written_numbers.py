"""Numbers in the terminal's tables and sentences as each language writes them (English unchanged)."""

from __future__ import annotations

import re

from cribcore.written_numbers import count_text, decimal_text, percent_text

from .terminal import run_in_process


def test_english_and_spanish_write_decimals_groups_and_percentages_their_way() -> None:
    assert decimal_text(2.456, 2, "en") == "2.46" and decimal_text(2.456, 2, "es") == "2,46"
    assert (
        decimal_text(1.25, 1, "en", sign=True) == "+1.2" and decimal_text(-1.0, 1, "es", sign=True) == "-1,0"
    )
    assert count_text(12345, "en") == "12,345" and count_text(12345, "es") == "12 345"
    assert count_text(2565, "en") == "2,565" and count_text(2565, "es") == "2565"
    assert percent_text(48.5, 1, "en") == "48.5%" and percent_text(48.5, 1, "es") == "48,5 %"


def test_simulate_writes_its_figures_in_spanish_with_a_decimal_comma() -> None:
    argv = ("simulate", "3", "--players", "random", "--seed", "5", "--jobs", "1")
    spanish = run_in_process(*argv, "--lang", "es").stdout
    assert re.search(r"puesto 1 \(random\) gana +\d+ +\d+,\d %", spanish)
    assert re.search(r"por partida", spanish) and not re.search(r"\d\.\d", spanish)
    english = run_in_process(*argv).stdout
    assert re.search(r"seat 1 \(random\) wins +\d+ +\d+\.\d%", english)
