"""The hook API keeps the promises of cribcore/hookspecs.py: every hook is called through pluggy (an
implementation names only the arguments it uses, a wrapper wraps), plugins are guarded before they are
registered, `record_hooks` sees the same calls for the same game, and what the core knows about the
built-in hand-flush, skunk and muggins plugins a third-party plugin can declare through a hook."""

from __future__ import annotations

import io
from collections.abc import Generator, Sequence
from typing import Any

import pytest
from rich.console import Console

from cribcore import Game, pluginmanager
from cribcore.cards import Card, parse_cards
from cribcore.cli.play import seat_names
from cribcore.cli.session import Seating, Session
from cribcore.hookspecs import hookimpl
from cribcore.pluginmanager import PluginError
from cribcore.profiles import ProfileError
from cribcore.rulebook import rulebook_for
from cribcore.rules import RuleSet
from cribcore.scoring import FLUSH, ScoreItem, show_items
from cribcore.simulate import Matchup
from cribcore.stats import FlushRules, flush_rules
from cribcore.testing import one_plugin_profile, play_out, record_hooks, registered


class NoArguments:
    """Every load-time hook, each naming no argument at all (pluggy allows it)."""

    @hookimpl
    def cribcore_rules(self) -> dict[str, object]:
        return {"target": 61}

    @hookimpl
    def cribcore_check_rules(self) -> str | None:
        return None

    @hookimpl
    def cribcore_score_kinds(self) -> None:
        return None


def test_load_hooks_naming_no_argument_load() -> None:
    with registered("no-arguments", NoArguments):
        profile = one_plugin_profile("no-arguments")
    assert profile.rules.target == 61


class Refuses:
    @hookimpl
    def cribcore_check_rules(self) -> str:
        return "never with these rules"


def test_a_check_naming_no_argument_still_refuses() -> None:
    with registered("refuses", Refuses), pytest.raises(ProfileError, match="refuses: never with these rules"):
        one_plugin_profile("refuses")


class Wraps:
    """Wrappers of the load-time hooks: they receive what the plugin's other implementations gave."""

    @hookimpl
    def cribcore_rules(self) -> dict[str, object]:
        return {"target": 91}

    @hookimpl(wrapper=True)
    def cribcore_check_rules(self, rules: RuleSet) -> Generator[None, list[str | None], list[str | None]]:
        reasons = yield
        return [*reasons, None if rules.target == 91 else "the target must be 91"]


def test_wrapper_implementations_are_called_as_wrappers() -> None:
    with registered("wraps", Wraps):
        assert one_plugin_profile("wraps").rules.target == 91
        with pytest.raises(ProfileError, match="wraps: the target must be 91"):
            one_plugin_profile("wraps", rules={"target": 121})


class Fails:
    @hookimpl
    def cribcore_check_discard(self) -> str | None:
        raise KeyError("rank")


def test_the_guard_is_registered_and_pluggy_keeps_its_function() -> None:
    with registered("fails", Fails):
        profile = one_plugin_profile("fails")
        manager = pluginmanager.plugin_manager(profile.plugins, profile.options)
        registered_plugin = manager.get_plugin("fails")
        assert registered_plugin is not None
        assert not isinstance(registered_plugin, Fails)  # the guarded plugin, built before registering
        (impl,) = [i for i in manager.hook.cribcore_check_discard.get_hookimpls() if i.plugin_name == "fails"]
        assert impl.function is registered_plugin.cribcore_check_discard
        game = Game(profile, seed=3)
        with pytest.raises(PluginError, match=r"fails.*cribcore_check_discard raised KeyError"):
            play_out(game)


class Fifteens:
    """A house rule with its own show hook: each fifteen scores one point more."""

    @hookimpl
    def cribcore_show_items(self, cards: tuple[Card, ...], starter: Card, crib: bool) -> list[ScoreItem]:
        fifteens = [item for item in show_items(cards, starter, crib=crib) if item.kind == "fifteen"]
        return [ScoreItem("fifteen-bonus", item.cards, 1) for item in fifteens]


def test_record_hooks_records_the_same_calls_for_the_same_game_every_time() -> None:
    with registered("fifteens", Fifteens):
        profile = one_plugin_profile("fifteens")
        play_out(Game(profile, seed=11), seed=11)  # the rulebook's caches now hold this game's answers
        recorded = []
        for _ in range(3):
            with record_hooks(profile) as calls:
                play_out(Game(profile, seed=11), seed=11)
            recorded.append([(call.name, dict(call.kwargs)) for call in calls.calls])
    shows = [sum(1 for name, _ in calls if name == "cribcore_show_items") for calls in recorded]
    assert shows[0] > 0
    assert recorded[0] == recorded[1] == recorded[2]


class MyFlush:
    """A third-party flush rule, written as hand-flush is: a wrapper that rewrites the flush items."""

    @hookimpl
    def cribcore_flush_rules(self) -> tuple[bool, bool]:
        return True, False

    @hookimpl(wrapper=True)
    def cribcore_show_items(
        self, cards: tuple[Card, ...], starter: Card, crib: bool
    ) -> Generator[None, list[Sequence[ScoreItem] | None], list[Sequence[ScoreItem] | None]]:
        results = yield
        flushes = [
            item
            for item in show_items(
                cards, starter, crib=crib, hand_flush_needs_starter=True, crib_flush_needs_starter=False
            )
            if item.kind == FLUSH
        ]
        return [*[[i for i in r or () if i.kind != FLUSH] for r in results], flushes]


def test_a_third_party_flush_rule_is_treated_as_hand_flush_is() -> None:
    built_in = one_plugin_profile("hand-flush", {"hand_min": 5, "crib_min": 4})
    assert rulebook_for(built_in).flush_rules == (True, False)
    assert flush_rules(built_in) == FlushRules(hand_needs_starter=True, crib_needs_starter=False)
    with registered("my-flush", MyFlush):
        profile = one_plugin_profile("my-flush")
        book = rulebook_for(profile)
        assert book.flush_rules == (True, False)
        assert flush_rules(profile) == flush_rules(built_in)
        assert book.show_counter is not book.show_total  # the fast tables, as for hand-flush
        cards, starter = parse_cards("2H 4H 6H 8H"), Card.parse("KS")
        assert book.show_total(cards, starter, crib=False) == rulebook_for(built_in).show_total(
            cards, starter, crib=False
        )


class MySkunk:
    """A third-party rule that doubles a win by 41 or more, and says so."""

    @hookimpl(tryfirst=True)
    def cribcore_skunk_lines(self, rules: RuleSet) -> tuple[int, int]:
        return rules.target - 40, 0

    @hookimpl(tryfirst=True)
    def cribcore_game_points(self, rules: RuleSet, scores: tuple[int, ...], winner: int) -> int | None:
        return 2 if min(scores) < rules.target - 40 else None


def test_a_third_party_skunk_rule_is_counted_as_skunk_is() -> None:
    skunk = one_plugin_profile("skunk", {"skunk_line": 81, "double_skunk_line": 0})
    assert Matchup(skunk, ("random", "random"), 1).skunk_lines() == (81, 0)
    assert Matchup(one_plugin_profile("lowball"), ("random", "random"), 1).skunk_lines() == (91, 61)
    with registered("my-skunk", MySkunk):
        profile = one_plugin_profile("my-skunk")
        assert Matchup(profile, ("random", "random"), 1).skunk_lines() == (81, 0)


class Declares:
    """A third-party rule under which players declare their hand counts, as under muggins."""

    @hookimpl(tryfirst=True)
    def cribcore_declared(self, kind: str) -> bool | None:
        return True if kind == "hand" else None


def _help_text(profile: Any) -> str:
    seating = Seating(("human", "computer"), seat_names(("human", "computer")), profile)
    return Session(Console(file=io.StringIO()), seating, reader=None)._help()


def test_a_third_party_declared_count_gets_the_muggins_help() -> None:
    plain = _help_text(one_plugin_profile("lowball"))
    muggins = _help_text(one_plugin_profile("muggins"))
    assert muggins != plain and muggins.startswith(plain)
    with registered("declares", Declares):
        assert _help_text(one_plugin_profile("declares")) == muggins
