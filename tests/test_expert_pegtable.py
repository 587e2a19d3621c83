"""The pegging table by kept ranks and the expert's discard that weighs it."""

from __future__ import annotations

import pytest

from cribcore.players import pegging, pegtable
from cribcore.players.expert import ExpertPlayer
from cribcore.players.wintable import shipped_table

from .test_expert import _private_data, discard_view  # noqa: F401  (the fixture is autouse there only)


class TestTable:
    @pytest.mark.parametrize(
        ("ranks", "is_dealer"), [((1, 2, 3, 4), True), ((5, 5, 10, 13), False), ((7, 8, 8, 9), True)]
    )
    def test_entries_recompute_to_the_shipped_values(self, ranks: tuple[int, ...], is_dealer: bool) -> None:
        table = pegtable.peg_table()
        mine, theirs = pegtable.entry(ranks, is_dealer)
        assert table.pegging(ranks, is_dealer) == (
            round(mine * pegtable.UNIT) / pegtable.UNIT,
            round(theirs * pegtable.UNIT) / pegtable.UNIT,
        )

    def test_the_file_names_its_command_and_has_every_keep(self) -> None:
        table = pegtable.peg_table()
        assert "benchmarks/make_peg_table.py" in table.command
        assert len(table.dealer) == len(table.pone) == len(pegtable.KEYS) == 1820
        # The dealer pegs more than the pone on average, as in every measurement of the game.
        assert table.base[True][0] > table.base[True][1] and table.base[False][0] < table.base[False][1]

    def test_shift_is_the_difference_from_the_average_keep(self) -> None:
        table = pegtable.peg_table()
        mine, theirs = table.pegging((9, 7, 8, 13), False)
        assert table.shift((7, 8, 9, 13), False) == (
            mine - table.base[False][0],
            theirs - table.base[False][1],
        )

    def test_a_play_out_scores_the_go_and_the_pairs(self) -> None:
        # Tens only (the play-out takes any ranks): three to a count of 30, then the go. The pone
        # leads: dealer pair 2, pone three of a kind 6 and the go 1; the dealer leads the next count:
        # pone 2, dealer 6 and the go 1; the pone leads the last two: dealer 2 and the last card 1.
        assert pegtable.play_out((10, 10, 10, 10), (10, 10, 10, 10)) == (2 + 6 + 1 + 2 + 1, 6 + 1 + 2)
        for ranks in pegtable.KEYS[::300]:
            assert sum(pegtable.play_out(ranks, (1, 2, 3, 4))) >= 1

    def test_the_table_plays_out_by_the_search_s_own_rank_play_out(self) -> None:
        # One quick rule in one place: the table follows the rule the play search plays out by.
        assert pegtable.play_out is pegging.play_out_ranks

    def test_rows_that_do_not_read_are_refused(self) -> None:
        with pytest.raises(ValueError, match="peg table"):
            pegtable.table_from_json('{"format": 1, "unit": 1000, "command": "", "dealer": [], "pone": []}')


class TestWinValues:
    def test_without_pegging_shifts_the_values_are_as_before(self) -> None:
        value = shipped_table().discard_values(60, 70, False)
        assert value(8, 0.5) == value(8, 0.5, 0.0, 0.0)

    @pytest.mark.parametrize("is_dealer", [True, False])
    def test_pegging_more_wins_more(self, is_dealer: bool) -> None:
        value = shipped_table().discard_values(90, 95, is_dealer)
        assert value(6, 0.0, 1.5, 0.0) > value(6, 0.0) > value(6, 0.0, 0.0, 1.5)


class TestDiscard:
    def test_the_judgement_counts_the_kept_hands_pegging(self) -> None:
        view = discard_view("5H 5D JC QS 2C 8S", dealer=1, scores=(30, 40))
        weighed = ExpertPlayer(1).judge(view)
        plain = {j.action: j for j in ExpertPlayer(1, peg_weight=0.0).judge(view)}
        table = pegtable.peg_table()
        for judged in weighed:
            kept = judged.facts["kept"]
            assert isinstance(kept, tuple)
            mine, theirs = table.shift([int(c.rank) for c in kept], False)
            assert judged.facts["pegging"] == pytest.approx(mine - theirs)
            assert judged.points == pytest.approx(plain[judged.action].points + mine - theirs)

    def test_the_pone_keeps_low_cards_that_peg_well(self) -> None:
        # 4 4 5 J and the ace and king away scores best by hand and crib, but the pone keeping A 4 4 5
        # leaves the dealer fewer fifteens and pegs well itself: worth more than the points it gives up.
        view = discard_view("AC 4C 4D 5C JH KD", dealer=1)
        plain = ExpertPlayer(1, peg_weight=0.0).decide(view)
        assert set(map(str, plain.facts["kept"])) == {"4C", "4D", "5C", "JH"}  # type: ignore[call-overload]
        chosen = ExpertPlayer(1).decide(view)
        assert set(map(str, chosen.facts["kept"])) == {"AC", "4C", "4D", "5C"}  # type: ignore[call-overload]

    def test_without_a_win_table_the_pegging_orders_the_discards(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        # Far from the end (no reach), the order is the points with the pegging counted in.
        view = discard_view("5H 5D JC QS 2C 8S", dealer=1, scores=(30, 40))
        player = ExpertPlayer(1)
        monkeypatch.setattr(player, "table_of", lambda view: None)
        judged = player.judge(view)
        assert all(j.win is None for j in judged)
        assert [j.points for j in judged] == sorted((j.points for j in judged), reverse=True)
        assert any(j.facts["pegging"] for j in judged)
