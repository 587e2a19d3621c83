"""The computer's tables under a profile: a play rule's own pegging table (built on first use, kept by
fingerprint, checked when read), the hard and expert levels reckoning with it, and ``cribbage tables
build|list|clear``."""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cribcore import Game, Profile, load_profile
from cribcore.cli.main import main
from cribcore.players import hard, pegtable, tablefiles, wintable, wintable_build
from cribcore.players.expert import ExpertPlayer
from cribcore.players.hard import HardPlayer
from cribcore.players.pegging import play_out_ranks, risks_for
from cribcore.players.rankplay import RankPlay, play_risks
from cribcore.players.tally import RANK
from cribcore.rulebook import Rulebook, rulebook_for, standard_rulebook

from .house_rules import PAIRS_SIX, data_dir, pairs_six

__all__ = ["data_dir", "pairs_six"]  # fixtures

CaptureFixture = pytest.CaptureFixture[str]


def house_profile(plugin: str) -> Profile:
    base = load_profile()
    return Profile(name=plugin, rules=base.rules, plugins=(plugin,))


def profile_file(tmp_path: Path, plugin: str | None = None, target: int | None = None) -> Path:
    path = tmp_path / "house.toml"
    lines = ['name = "house"', 'extends = "standard"']
    if plugin is not None:
        lines.append(f'plugins = ["{plugin}"]')
    if target is not None:
        lines += ["[rules]", f"target = {target}"]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


class TestRankPlay:
    def test_under_the_standard_play_it_plays_as_the_search_does(self) -> None:
        play = RankPlay(standard_rulebook())
        rng = random.Random(3)
        pack = [rank for rank in range(1, 14) for _ in range(4)]
        for _ in range(300):
            cards = rng.sample(pack, 8)
            dealer, pone = sorted(cards[:4]), sorted(cards[4:])
            assert play.play_out(dealer, pone) == play_out_ranks(dealer, pone)

    def test_a_pair_scores_six_and_a_run_double(self, pairs_six: str) -> None:
        book = rulebook_for(house_profile(pairs_six))
        assert play_risks(book) == (1.0, 3.0, 2.0)
        assert play_risks(standard_rulebook()) == (1.0, 1.0, 1.0)
        # The pone lays 5, the dealer pairs it (6, and fifteen? no: 10), the pone lays a third 5 (pair
        # royal 18 and fifteen 2), the dealer a fourth (double pair royal 36 and the go... 20 is open).
        play = RankPlay(book)
        dealer, pone = play.play_out([5, 5, 13, 13], [5, 5, 12, 12])
        standard = play_out_ranks([5, 5, 13, 13], [5, 5, 12, 12])
        assert dealer > standard[0] and pone > standard[1]

    def test_the_search_scales_its_guesses_at_the_answers(self, pairs_six: str) -> None:
        count, pair, run = risks_for(rulebook_for(house_profile(pairs_six)))
        standard = risks_for(standard_rulebook())
        assert count == standard[0] and pair == 3 * standard[1] and run == 2 * standard[2]


class TestPegTable:
    def test_the_standard_play_keeps_the_shipped_table(self, data_dir: Path) -> None:
        for name in ("standard", "muggins", "flush-with-starter"):
            assert pegtable.peg_table_for(rulebook_for(load_profile(name))) is pegtable.peg_table()
        assert not data_dir.exists()

    def test_built_once_kept_by_fingerprint_then_read(
        self, pairs_six: str, data_dir: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        book = rulebook_for(house_profile(pairs_six))
        table = pegtable.peg_table_for(book)
        path = data_dir / "peg-tables" / f"{book.fingerprint}.json"
        header = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
        assert header["kind"] == "peg" and header["fingerprint"] == book.fingerprint
        assert header["profile"] == PAIRS_SIX and len(header["sha256"]) == 64
        # Both seats peg far more when a pair in the play scores 6 and a run double.
        standard = pegtable.peg_table()
        for role in (True, False):
            assert table.base[role][0] > standard.base[role][0] + 1
            assert table.base[role][1] > standard.base[role][1] + 1
        monkeypatch.setattr(pegtable, "_BY_FINGERPRINT", {})
        monkeypatch.setattr(pegtable, "peg_table_text", lambda *a, **k: pytest.fail("computed again"))
        assert pegtable.peg_table_for(book) == table

    @pytest.mark.parametrize(
        ("text", "why"),
        [
            ('{"kind": "peg", "fingerprint": "', "it is damaged"),
            ("not a table at all", "it is damaged"),
        ],
    )
    def test_a_damaged_file_is_built_again_with_a_notice(
        self, pairs_six: str, data_dir: Path, capsys: CaptureFixture, text: str, why: str
    ) -> None:
        book = rulebook_for(house_profile(pairs_six))
        path = data_dir / "peg-tables" / f"{book.fingerprint}.json"
        path.parent.mkdir(parents=True)
        path.write_text(text, encoding="utf-8")
        pegtable.peg_table_for(book)
        err = capsys.readouterr().err
        assert err.count("\n") == 1
        assert f"the pegging table of 'pairs-six' at {path} cannot be used ({why}); building it again" in err
        assert json.loads(path.read_text(encoding="utf-8").splitlines()[0])["kind"] == "peg"

    def test_a_changed_body_or_another_version_is_noticed(
        self, pairs_six: str, data_dir: Path, capsys: CaptureFixture, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        book = rulebook_for(house_profile(pairs_six))
        pegtable.peg_table_for(book)
        path = data_dir / "peg-tables" / f"{book.fingerprint}.json"
        text = path.read_text(encoding="utf-8")
        path.write_text(
            text.replace("[", "[1", 1).replace('"dealer": [\n[', '"dealer": [\n[9'), encoding="utf-8"
        )
        monkeypatch.setattr(pegtable, "_BY_FINGERPRINT", {})
        pegtable.peg_table_for(book)
        assert "(it is damaged); building it again" in capsys.readouterr().err
        monkeypatch.setattr(pegtable, "_BY_FINGERPRINT", {})
        monkeypatch.setattr(pegtable, "PROFILE_VERSION", pegtable.PROFILE_VERSION + 1)
        pegtable.peg_table_for(book)
        assert "(it was made by another version of cribcore); building it again" in capsys.readouterr().err

    def test_a_game_that_needs_one_says_so(
        self, pairs_six: str, data_dir: Path, capsys: CaptureFixture, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.setattr(tablefiles, "on_terminal", lambda: True)
        shown: list[tuple[str, int, list[int]]] = []
        real = tablefiles.build_progress

        @contextlib.contextmanager
        def progress(description: str, total: int, *, show: bool = True) -> Iterator[tablefiles.Progress]:
            done: list[int] = []
            shown.append((description, total, done))
            with real(description, total, show=show) as report:

                def both(n: int) -> None:
                    done.append(n)
                    report(n)

                yield both

        monkeypatch.setattr(pegtable, "build_progress", progress)
        HardPlayer(1).discard(Game(house_profile(pairs_six), seed=1).view(0))
        err = capsys.readouterr().err
        assert (
            "cribcore: building the pegging table for 'pairs-six' (once; 'cribbage tables build' builds it "
            "ahead)" in err
        )
        ((description, total, done),) = shown  # one progress bar, filled to the end
        assert description == "pegging table for pairs-six" and done[-1] == total == len(pegtable.KEYS)


class TestTheLevelsKnowThePlayRule:
    def test_hard_discards_differ_from_the_rule_blind_level(self, pairs_six: str, data_dir: Path) -> None:
        profile = house_profile(pairs_six)
        told = standard_rulebook()
        differ = 0
        for seed in range(30):
            view = Game(profile, seed=seed).view(0)
            differ += HardPlayer(seed).discard(view) != HardPlayer(seed, rulebook=told).discard(view)
        assert differ > 0

    def test_hard_weighs_part_of_what_the_play_rule_changes(self, pairs_six: str, data_dir: Path) -> None:
        profile = house_profile(pairs_six)
        view = Game(profile, seed=5).view(1)
        player = HardPlayer(5)
        term = player.play_rule_pegging(view)
        assert term is not None and 0 < hard.PLAY_RULE_WEIGHT < 1
        table, standard = pegtable.peg_table_for(rulebook_for(profile)), pegtable.peg_table()
        for _, _, option in player.rank_discards(view, pegging=False):
            ranks = [RANK[c.index] for c in option.kept]
            mine, theirs = table.pegging(ranks, view.is_dealer)
            base_mine, base_theirs = standard.pegging(ranks, view.is_dealer)
            change = (mine - theirs) - (base_mine - base_theirs)
            assert term(option) == pytest.approx(hard.PLAY_RULE_WEIGHT * change)

    def test_under_the_standard_play_hard_adds_nothing(self) -> None:
        view = Game(seed=4).view(0)
        assert HardPlayer(4).play_rule_pegging(view) is None

    def test_the_expert_uses_the_profiles_table(self, pairs_six: str, data_dir: Path) -> None:
        book = rulebook_for(house_profile(pairs_six))
        view = Game(house_profile(pairs_six), seed=2).view(0)
        table = ExpertPlayer(2)._peg_table(view)
        assert table is not None and table is pegtable.peg_table_for(book)
        assert table is not pegtable.peg_table()
        assert ExpertPlayer(2, compute_tables=False)._peg_table(view) is table


def run(capsys: CaptureFixture, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


class TestTablesCommand:
    def test_build_list_and_clear(
        self,
        pairs_six: str,
        data_dir: Path,
        tmp_path: Path,
        capsys: CaptureFixture,
        monkeypatch: pytest.MonkeyPatch,
    ) -> None:
        monkeypatch.setattr(wintable, "FIRST_USE_DEALS", 6)
        monkeypatch.setattr(wintable, "_BY_FINGERPRINT", {})
        path = profile_file(tmp_path, PAIRS_SIX)
        assert run(capsys, "tables", "list")[1] == "no tables are kept in the data folder\n"
        status, out, err = run(capsys, "tables", "build", str(path), "--jobs", "1")
        assert status == 0, err
        assert "pegging table for house: built in" in out and "win table for house: built in" in out
        assert "crib table" not in out  # the standard show: the shipped crib table serves
        status, out, _ = run(capsys, "tables", "build", str(path))
        assert "pegging table for house: already built" in out and "win table for house: already built" in out
        status, out, _ = run(capsys, "tables", "list")
        fingerprint = rulebook_for(load_profile(path)).fingerprint
        assert out.count(fingerprint) == 2 and "pegging table" in out and "win table" in out
        assert "house" in out and "ready" in out
        assert run(capsys, "tables", "clear", "standard")[1] == "removed 0 table files\n"
        assert run(capsys, "tables", "clear", str(path))[1] == "removed 2 table files\n"
        assert run(capsys, "tables", "list")[1] == "no tables are kept in the data folder\n"

    def test_another_target_builds_its_win_table_in_local_processes(
        self, data_dir: Path, tmp_path: Path, capsys: CaptureFixture, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.setattr(wintable, "FIRST_USE_DEALS", 4)
        monkeypatch.setattr(wintable, "_BY_FINGERPRINT", {})
        path = profile_file(tmp_path, target=61)
        status, out, err = run(capsys, "tables", "build", str(path), "--jobs", "2")
        assert status == 0, err
        assert "win table for house: built in" in out
        status, out, _ = run(capsys, "tables", "list")
        assert "win table" in out and "damaged" not in out
        assert run(capsys, "tables", "clear")[1] == "removed 1 table file\n"

    def test_the_standard_profile_needs_nothing(self, capsys: CaptureFixture, data_dir: Path) -> None:
        status, out, _ = run(capsys, "tables", "build", "standard")
        assert status == 0
        assert out == "standard: the computer needs no table beyond those that ship with cribcore\n"

    def test_jobs_and_dask_together_are_refused(self, capsys: CaptureFixture) -> None:
        status, _, err = run(capsys, "tables", "build", "standard", "--jobs", "2", "--dask", "tcp://h:1")
        assert status == 2 and "--jobs is for local processes" in err and err.count("\n") == 1

    def test_a_damaged_or_old_file_is_listed_as_such(self, data_dir: Path, capsys: CaptureFixture) -> None:
        folder = data_dir / "win-tables"
        folder.mkdir(parents=True)
        (folder / "0123456789abcdef.json").write_text("garbage", encoding="utf-8")
        (folder / "fedcba9876543210.json").write_text('{\n"version": 1\n}\n', encoding="utf-8")
        status, out, _ = run(capsys, "tables", "list")
        lines = out.splitlines()
        assert status == 0
        assert any("0123456789abcdef" in line and "damaged" in line for line in lines)
        assert any("fedcba9876543210" in line and "made by an older version" in line for line in lines)

    def test_a_file_of_an_older_version_is_built_again_with_a_notice(
        self, pairs_six: str, data_dir: Path, capsys: CaptureFixture
    ) -> None:
        book = rulebook_for(house_profile(pairs_six))
        path = data_dir / "peg-tables" / f"{book.fingerprint}.json"
        path.parent.mkdir(parents=True)
        path.write_text('{\n"format": 1\n}\n', encoding="utf-8")
        pegtable.peg_table_for(book)
        assert "(it was made by another version of cribcore); building it again" in capsys.readouterr().err


def test_a_dask_cluster_builds_the_same_pegging_table(pairs_six: str, data_dir: Path) -> None:
    distributed = pytest.importorskip("distributed")
    book = rulebook_for(house_profile(pairs_six))
    local = pegtable.peg_table_text(book)
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
    ) as cluster:
        assert pegtable.peg_table_text(book, dask=cluster.scheduler_address) == local


def test_local_workers_of_a_simulation_share_one_pegging_table(
    pairs_six: str, data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cribcore.simulate import simulate

    built: list[str] = []
    real = pegtable.peg_table_text

    def counted(book: Rulebook, **options: Any) -> str:
        built.append("x")
        return real(book, **options)

    monkeypatch.setattr(pegtable, "peg_table_text", counted)
    result = simulate(2, ("hard", "hard"), profile=house_profile(pairs_six), seed=3, jobs=2)
    assert result.tally.games == 2
    assert built == ["x"]  # built once, here, before the workers started
    assert (data_dir / "peg-tables").is_dir()


def test_the_win_table_is_the_same_in_one_process_or_two(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(wintable_build, "CHUNK", 3)
    standard = load_profile("standard")
    book = rulebook_for(Profile(name="short", rules=standard.rules.model_copy(update={"target": 61})))
    here = wintable_build.compute_table(book, 7, seed=5, show_progress=False)
    apart = wintable_build.compute_table(book, 7, seed=5, show_progress=False, jobs=2)
    assert here.dealer == apart.dealer and here.stats == apart.stats
