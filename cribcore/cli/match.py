"""Words for a match of several games: what a win was worth (a skunk, a double skunk), the standing in
games won and game points, and the result. The worth of each game comes from the engine
(`cribcore.Game.game_points`), so a profile's skunk rules decide it, never this module."""

from __future__ import annotations

from ..saves import MatchState
from .describe import Voice, number_words

__all__ = ["match_result", "skunk_words", "standing", "totals"]


def skunk_words(points: int) -> str | None:
    """What a won game worth ``points`` game points is called: ``None`` for an ordinary win (1)."""
    if points <= 1:
        return None
    if points == 2:
        return "a skunk"
    if points == 3:
        return "a double skunk"
    return f"worth {number_words(points)} games"


def totals(match: MatchState, sides: int) -> tuple[list[int], list[int]]:
    """Games won and game points per side so far."""
    won = [0] * sides
    points = [0] * sides
    for result in match.results:
        won[result.winner] += 1
        points[result.winner] += result.game_points
    return won, points


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def standing(match: MatchState, voice: Voice) -> str:
    """``Ann: 1 game won, 2 game points · Computer: 0 games won, 0 game points``."""
    won, points = totals(match, len(voice.side_names))
    return " · ".join(
        f"{name}: {_plural(w, 'game')} won, {_plural(p, 'game point')}"
        for name, w, p in zip(voice.side_names, won, points, strict=True)
    )


def match_result(match: MatchState, voice: Voice) -> str:
    """Who won the match on game points (or that it is drawn), with the points."""
    _, points = totals(match, len(voice.side_names))
    best = max(points)
    leaders = [side for side, p in enumerate(points) if p == best]
    if len(leaders) > 1:
        return f"The match is drawn, {number_words(best)} game point{'s' * (best != 1)} each"
    side = leaders[0]
    others = sorted((p for s, p in enumerate(points) if s != side), reverse=True)
    margin = f", {best} game points to {others[0]}" if len(others) == 1 else f" with {best} game points"
    return f"{voice.side_does(side, 'win')} the match{margin}"
