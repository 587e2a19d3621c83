"""Wild cards, first-class (``cribcore_wild_cards``, `cribcore.wild`): the rules authority counts the best
substitution itself, items carry each wild card with what it stood for, every face shows it, the fast
totals agree with the items, and the computer levels plan with it. Proven with the one-eyed-jacks example
(J♠ and J♥ wild in the show) loaded in this process."""

from __future__ import annotations

import json
import random
from itertools import permutations
from pathlib import Path

import pytest

from cribcore.cards import FULL_DECK, Card, parse_card, parse_cards
from cribcore.cli.main import main
from cribcore.engine import Game
from cribcore.events import Event
from cribcore.i18n import set_language
from cribcore.players import crib as crib_module
from cribcore.players import make_player
from cribcore.players.crib import crib_table_for, expected_crib
from cribcore.profiles import load_profile
from cribcore.rulebook import Rulebook, rulebook_for
from cribcore.scoring import PAIR, ScoreItem, show_items, show_total
from cribcore.server.jsontext import compact
from cribcore.server.wire import event_from_json, event_text, event_to_json
from cribcore.speech import reasons, spoken_show
from cribcore.wild import WildCards, best_standard_total, best_standing, substituted_items, wild_cards_from

from .house_rules import PAIR_POINTS, data_dir, one_eyed_jacks, ten_pairs

__all__ = ["data_dir", "one_eyed_jacks", "ten_pairs"]

CaptureFixture = pytest.CaptureFixture[str]
JS, JH = parse_cards("JS JH")


def book_of(profile: Path) -> Rulebook:
    return rulebook_for(load_profile(profile))


def total(items: tuple[ScoreItem, ...]) -> int:
    return sum(item.points for item in items)


def brute_force(hand: list[Card], starter: Card, *, crib: bool) -> int:
    """The best count over every substitution of the one-eyed jacks, card by card."""
    cards = [*hand, starter]
    wild = [i for i, card in enumerate(cards) if card in (JS, JH)]
    fixed = {card for i, card in enumerate(cards) if i not in wild}
    free = [card for card in FULL_DECK if card not in fixed]
    best = -1
    for chosen in permutations(free, len(wild)):
        counted = list(cards)
        for i, card in zip(wild, chosen, strict=True):
            counted[i] = card
        best = max(best, show_total(counted[:-1], counted[-1], crib=crib))
    return best


class TestWildCards:
    def test_a_wild_jack_counts_as_the_card_that_scores_most(self, one_eyed_jacks: Path) -> None:
        book = book_of(one_eyed_jacks)
        items = book.show_items(parse_cards("4C 5D 6H JS"), parse_card("5S"), crib=False)
        assert total(items) == 24  # 16 when the jack was scored as itself
        assert book.wild_standing(parse_cards("4C 5D 6H JS"), parse_card("5S"), crib=False) == (
            (JS, parse_card("4D")),
        )
        fifteens = [item for item in items if item.kind == "fifteen" and JS in item.cards]
        assert fifteens and all(item.wild == ((JS, parse_card("4D")),) for item in fifteens)
        assert all(item.stood_for(JS) == parse_card("4D") for item in fifteens)

    def test_two_wild_jacks_choose_together(self, one_eyed_jacks: Path) -> None:
        book = book_of(one_eyed_jacks)
        items = book.show_items(parse_cards("JS JH 5C 5D"), parse_card("5S"), crib=False)
        assert total(items) == 29  # 23 when they were scored as jacks
        assert book.show_total(parse_cards("JS JH 5C 5D"), parse_card("5S"), crib=False) == 29
        assert spoken_show(items).endswith(
            "four of a kind is twenty-eight, and one for his nobs is twenty-nine"
        )

    def test_a_wild_starter_is_wild_for_every_count(self, one_eyed_jacks: Path) -> None:
        book = book_of(one_eyed_jacks)
        # The fourth five (22 with the jack of spades turned up as itself); no card left for his nobs.
        assert book.show_total(parse_cards("5C 5D 5H JC"), JS, crib=False) == 28
        assert book.show_total(parse_cards("5C 5D 5H JC"), JS, crib=True) == 28
        assert book.show_total(parse_cards("5C 5D 4S JC"), JS, crib=False) == 17  # as 6♣, with his nobs

    def test_the_command_counts_it_and_shows_what_it_stood_for(
        self, one_eyed_jacks: Path, capsys: CaptureFixture
    ) -> None:
        argv = ["score", "4C", "5D", "6H", "JS", "--starter", "5S", "--profile", str(one_eyed_jacks)]
        assert main([*argv, "--json"]) == 0
        data = json.loads(capsys.readouterr().out)
        assert data["total"] == 24 and data["profile"] == "one-eyed-jacks"
        assert data["wild"] == {"JS": "4D"}
        assert {"JS": "4D"} in [item.get("wild") for item in data["items"]]
        assert main(argv) == 0
        out = capsys.readouterr().out
        assert "J♠ as 4♦" in out or "JS as 4D" in out
        try:
            assert main(["--lang", "es", *argv]) == 0
        finally:
            set_language("en")
        out = capsys.readouterr().out
        assert "J♠ como 4♦" in out or "JS como 4D" in out

    def test_without_the_plugin_the_jack_is_a_jack(self) -> None:
        assert show_total(parse_cards("4C 5D 6H JS"), parse_card("5S")) == 17  # with his nobs
        assert show_total(parse_cards("JS JH 5C 5D"), parse_card("5S")) == 23

    def test_fast_totals_agree_with_the_items_and_every_substitution(self, one_eyed_jacks: Path) -> None:
        book = book_of(one_eyed_jacks)
        rng = random.Random(31)
        for n in range(300):
            cards = rng.sample(FULL_DECK, 5)
            if n % 2 and JS not in cards:
                cards[0] = JS
            if n % 3 == 0 and JH not in cards:
                cards[-1 if n % 4 else 1] = JH
            hand, starter, crib = sorted(cards[:4]), cards[4], bool(n % 5 == 0)
            expected = total(book.show_items(hand, starter, crib=crib))
            assert book.show_total(hand, starter, crib=crib) == expected
            assert book.show_counter(hand, starter, crib=crib) == expected
            if n % 10 == 0:
                assert brute_force(hand, starter, crib=crib) == expected

    def test_the_rank_first_search_is_the_full_search(self) -> None:
        rng = random.Random(7)
        for allowed in (FULL_DECK, parse_cards("5C 5D 5H 5S 4D TH JC")):
            wild = WildCards(dict.fromkeys((JS, JH), tuple(allowed)))
            for _ in range(200):
                cards = rng.sample([c for c in FULL_DECK if c not in (JS, JH)], 3)
                hand, starter = sorted([JS, *cards[:2], JH]), cards[2]
                for crib in (False, True):
                    count = lambda h, s, crib=crib: show_total(h, s, crib=crib)  # noqa: E731
                    full = best_standing(hand, starter, wild, count)
                    assert best_standing(hand, starter, wild, count, standard_count=True) == full
                    assert best_standard_total(hand, starter, wild, crib=crib) == full[1]

    def test_other_plugins_score_the_cards_stood_for(self, one_eyed_jacks: Path, ten_pairs: Path) -> None:
        both = one_eyed_jacks.parent / "both.toml"
        profile = Path(ten_pairs).parent / "both.toml"
        profile.write_text(
            'name = "both"\nextends = "standard"\nplugins = ["ten-pairs", "one-eyed-jacks"]\n',
            encoding="utf-8",
        )
        del both
        book = book_of(profile)
        hand, starter = parse_cards("9C 9D KH JS"), parse_card("2C")
        items = book.show_items(hand, starter, crib=False)
        # A third nine: three pairs of ten each beat every fifteen the jack could make.
        assert [item.points for item in items if item.kind == PAIR] == [PAIR_POINTS] * 3
        assert book.show_total(hand, starter, crib=False) == total(items)

    def test_the_engine_and_the_computer_play_a_whole_game_with_it(
        self, one_eyed_jacks: Path, data_dir: Path
    ) -> None:
        profile = load_profile(one_eyed_jacks)
        book = rulebook_for(profile)
        game = Game(profile, seed=12)
        players = [make_player("hard", 1), make_player("medium", 2)]
        shown_wild = 0
        while not game.is_over:
            seat = game.to_act[0]
            game.apply(seat, players[seat].choose(game.view(seat)))
        for event in game.events:
            if event.kind in ("hand", "crib") and event.items:
                assert event.points == total(event.items)
                shown_wild += any(item.wild for item in event.items)
        assert shown_wild  # seed 12 turns J♥ up in the first deal
        assert book.wild_cards.stands_for[JS] == FULL_DECK

    def test_the_crib_table_knows_a_wild_jack_from_another(
        self, one_eyed_jacks: Path, data_dir: Path
    ) -> None:
        book = book_of(one_eyed_jacks)
        table = crib_table_for(book)
        assert table.wild == (JH.index, JS.index)
        five, jack = parse_cards("5C JC")
        for own in (True, False):
            wild_value = expected_crib([five.index, JS.index], own=own, table=table)
            assert wild_value > expected_crib([five.index, jack.index], own=own, table=table) + 1
        assert expected_crib([JS.index], table=table, own=True, seats=3) > table.one["J"]
        # Kept in the data directory and read back as it was.
        crib_module._BY_FINGERPRINT.clear()
        assert crib_table_for(book) == table

    def test_items_carry_the_wild_card_on_the_wire(self, one_eyed_jacks: Path) -> None:
        items = book_of(one_eyed_jacks).show_items(parse_cards("4C 5D 6H JS"), parse_card("5S"), crib=False)
        event = Event(kind="hand", deal=0, seat=0, cards=parse_cards("4C 5D 6H JS"), points=24, items=items)
        data = event_to_json(event)
        assert {"JS": "4D"} in [item.get("wild") for item in data["items"]]
        assert json.loads(event_text(event)) == json.loads(compact(data))
        assert event_from_json(data).items == items
        assert reasons(items, lang="en") == "four fifteens 8, two pairs 4, four runs of three 12"

    def test_a_plugin_may_put_its_own_substitution_back_on_the_wild_card(self) -> None:
        five = parse_card("5H")
        items = show_items(parse_cards("5C 5D TS"), five)
        back = substituted_items(items, {JS: five})
        assert all(five not in item.cards for item in back)
        assert next(item.wild for item in back if JS in item.cards) == ((JS, five),)
        assert substituted_items(items, {JS: JS}) == items

    def test_bad_declarations_are_refused_in_one_line(self) -> None:
        with pytest.raises(ValueError, match="may stand only for standard cards"):
            wild_cards_from([{JS: ["5H"]}])  # type: ignore[list-item]
        with pytest.raises(ValueError, match="may stand for no card"):
            wild_cards_from([{JS: []}])
        merged = wild_cards_from([{JS: parse_cards("5H")}, {JS: parse_cards("4D 5H")}, None])
        assert merged.stands_for == {JS: parse_cards("4D 5H")}
