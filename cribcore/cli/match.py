"""Words for a match of several games: what a win was worth (a skunk, a double skunk), the standing in
games won and game points, and the result. The worth of each game comes from the engine
(`cribcore.Game.game_points`), so a profile's skunk rules decide it, never this module."""

from __future__ import annotations

from ..i18n import _, ngettext
from ..saves import MatchState
from .describe import Voice, number_words

__all__ = ["match_result", "skunk_words", "standing", "totals"]


def skunk_words(points: int) -> str | None:
    """What a won game worth ``points`` game points is called: ``None`` for an ordinary win (1)."""
    if points <= 1:
        return None
    if points == 2:
        return _("a skunk")
    if points == 3:
        return _("a double skunk")
    return _("worth {number} games").format(number=number_words(points))


def totals(match: MatchState, sides: int) -> tuple[list[int], list[int]]:
    """Games won and game points per side so far."""
    won = [0] * sides
    points = [0] * sides
    for result in match.results:
        won[result.winner] += 1
        points[result.winner] += result.game_points
    return won, points


def standing(match: MatchState, voice: Voice) -> str:
    """``Ann: 1 game won, 2 game points · Computer: 0 games won, 0 game points``."""
    won, points = totals(match, len(voice.side_names))
    return " · ".join(
        _("{name}: {won}, {points}").format(
            name=name,
            won=ngettext("{n} game won", "{n} games won", w).format(n=w),
            points=ngettext("{n} game point", "{n} game points", p).format(n=p),
        )
        for name, w, p in zip(voice.side_names, won, points, strict=True)
    )


def match_result(match: MatchState, voice: Voice) -> str:
    """Who won the match on game points (or that it is drawn), with the points."""
    _won, points = totals(match, len(voice.side_names))
    best = max(points)
    leaders = [side for side, p in enumerate(points) if p == best]
    if len(leaders) > 1:
        return ngettext(
            "The match is drawn, {number} game point each",
            "The match is drawn, {number} game points each",
            best,
        ).format(number=number_words(best))
    side = leaders[0]
    others = sorted((p for s, p in enumerate(points) if s != side), reverse=True)
    if len(others) == 1:
        margin = _(", {best} game points to {other}").format(best=best, other=others[0])
    else:
        margin = _(" with {best} game points").format(best=best)
    return _("{wins} the match{margin}").format(wins=voice.side_wins(side), margin=margin)
