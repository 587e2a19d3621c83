"""Issue 35, files and commands: profiles whose discard is not two cards validate; a record path that is
a device, a pipe or a huge file is refused at once with one line; a record of too many deals is refused
before it is checked deal by deal."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cribcore import records
from cribcore.cli.main import main
from cribcore.engine import Game
from cribcore.i18n import set_language
from cribcore.players import SimplePlayer
from cribcore.records import RecordError, game_record, read_record, replay
from cribcore.speech_messages import say

CaptureFixture = pytest.CaptureFixture[str]


def run(capsys: CaptureFixture, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize(
    ("body", "discards"),
    [
        ('name = "fp"\nextends = "four-players"\n', 1),
        ('name = "three"\n[rules]\ncards_dealt = 7\ndiscards = 3\n', 3),
        ('name = "four"\n[rules]\ncards_dealt = 8\ndiscards = 4\n', 4),
    ],
)
def test_profiles_validate_accepts_a_discard_of_one_three_or_four_cards(
    capsys: CaptureFixture, tmp_path: Path, body: str, discards: int
) -> None:
    path = tmp_path / "p.toml"
    path.write_text(body, encoding="utf-8")
    status, out, err = run(capsys, "profiles", "validate", str(path))
    assert (status, err) == (0, "")
    assert "valid profile" in out
    assert f"valid profile {body.split(chr(34))[1]!r}" in out
    assert discards  # the case named by its discard


def _cribbage(*argv: str) -> subprocess.CompletedProcess[str]:
    """``cribbage ARGV`` in a child held to 1 GB of memory and a minute, so that today's unbounded read
    fails the test rather than the machine, and a read that blocks fails it by its timeout."""
    code = (
        "import resource, sys\n"
        "resource.setrlimit(resource.RLIMIT_AS, (2**30, 2**30))\n"
        "from cribcore.cli.main import main\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    return subprocess.run(
        [sys.executable, "-c", code, *argv],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "CRIBCORE_LANG": "en"},
    )


@pytest.mark.parametrize("command", ["replay", "review"])
def test_a_device_is_refused_in_one_line(command: str) -> None:
    done = _cribbage(command, "/dev/zero")
    assert done.returncode == 1
    assert done.stderr == "cribbage: error: /dev/zero: not an ordinary file (a device, pipe or socket)\n"


@pytest.mark.parametrize("command", ["replay", "review"])
def test_a_named_pipe_with_no_writer_is_refused_without_waiting(tmp_path: Path, command: str) -> None:
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    done = _cribbage(command, str(pipe))
    assert done.returncode == 1
    assert done.stderr == f"cribbage: error: {pipe}: not an ordinary file (a device, pipe or socket)\n"


def test_standard_input_is_read_no_further_than_a_record_can_be() -> None:
    code = (
        "import resource, sys\n"
        "resource.setrlimit(resource.RLIMIT_AS, (2**30, 2**30))\n"
        "from cribcore.cli.main import main\n"
        "sys.exit(main(['replay', '-']))\n"
    )
    with open("/dev/zero", "rb") as zeros:
        done = subprocess.run(
            [sys.executable, "-c", code],
            stdin=zeros,
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ, "CRIBCORE_LANG": "en"},
        )
    assert (done.returncode, done.stderr) == (
        1,
        "cribbage: error: -: too large to be a record (over 16 MB)\n",
    )


def _record(deals: int | None = None) -> dict[str, object]:
    game = Game(seed=7, players=("Ann", "Bob"))
    players = [SimplePlayer(), SimplePlayer()]
    while not game.is_over:
        seat = game.to_act[0]
        game.apply(seat, players[seat].choose(game.view(seat)))
    record = game_record(game)
    if deals is not None:
        first = record["deals"]
        assert isinstance(first, list)
        record["deals"] = (first * (deals // len(first) + 1))[:deals]
        record.pop("result", None)
    return record


def test_a_file_larger_than_any_record_is_refused_unread(capsys: CaptureFixture, tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    with path.open("wb") as handle:
        handle.truncate(16 * 2**20 + 1)  # sparse: costs no disk, reads as zeros
    status, _, err = run(capsys, "replay", str(path))
    assert status == 1
    assert err == f"cribbage: error: {path}: too large to be a record (over 16 MB)\n"


def test_a_record_of_100000_deals_is_refused_before_its_deals_are_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = _record(100_000)
    assert len(json.dumps(record, separators=(",", ":"))) > 20_000_000  # the 28 MB record
    checked: list[object] = []
    monkeypatch.setattr(records.GameRecord, "model_validate", lambda data: checked.append(data))
    with pytest.raises(RecordError) as caught:
        replay(record)
    assert str(caught.value) == "deals: 100000 deals, more than a game can have (at most 20000)"
    assert checked == []
    with pytest.raises(RecordError, match="more than a game can have"):
        replay(_record(records.MAX_DEALS + 1))


def test_a_real_record_still_reads(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(_record()), encoding="utf-8")
    assert replay(read_record(path)).is_over


def test_the_new_refusals_are_said_in_spanish() -> None:
    set_language("es")
    try:
        for message in (
            "/dev/zero: not an ordinary file (a device, pipe or socket)",
            "x.json: too large to be a record (over 16 MB)",
            "deals: 100000 deals, more than a game can have (at most 20000)",
            "x.json: is a folder, not a file",
            "s.json: too large to be a save (over 17 MB)",
            "a name must not look like an empty seat's",
            "p.toml: plugins: 'muggins' is named twice",
        ):
            assert say(message) != message
    finally:
        set_language("en")


def test_the_coachs_points_go_to_the_card_judged_when_two_legal_cards_share_a_rank() -> None:
    from cribcore.players.registry import make_player

    from .test_expert import play_view

    view = play_view("3D 3H 4C 9D", "", scores=(60, 60), held=4)
    expert = make_player("expert", 1)
    judged = {str(j.action): j for j in expert.judge(view)}  # type: ignore[attr-defined]
    three_d, three_h = judged["play 3D"], judged["play 3H"]
    # The two threes play out the very same: the same chance, the same points, the same risk.
    assert three_d.win == three_h.win
    assert three_d.points == three_h.points
    assert three_d.facts["risk"] == three_h.facts["risk"]


def test_a_record_with_an_empty_player_name_is_refused() -> None:
    record = _record()
    record["players"] = ["", "Bob"]
    with pytest.raises(RecordError, match=r"^players: a name must not be empty$"):
        replay(record)
    record["players"] = ["  ", "Bob"]
    with pytest.raises(RecordError, match="a name must not be empty"):
        replay(record)


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ('name = "a"\nplugins = ["muggins", "muggins"]\n', "plugins: 'muggins' is named twice"),
        ('name = "a"\ndescription = "red \\u001b[31mtext"\n', "description: must be one line of printable"),
        ('name = "a"\ndescription = "two\\nlines"\n', "description: must be one line of printable"),
        (f'name = "a"\ndescription = "{"x" * 501}"\n', "description: String should have at most 500"),
        ('name = "a"\nextends = ""\n', "extends: String should have at least 1 character"),
    ],
)
def test_loose_profile_values_are_refused(
    capsys: CaptureFixture, tmp_path: Path, body: str, said: str
) -> None:
    path = tmp_path / "loose.toml"
    path.write_text(body, encoding="utf-8")
    status, _, err = run(capsys, "profiles", "validate", str(path))
    assert status == 1
    assert err.startswith(f"cribbage: error: {path}: {said}"), err
    assert err.count("\n") == 1


@pytest.mark.parametrize("name", ["true", "false", "none"])
def test_plugins_new_with_a_keyword_for_a_name_writes_modules_that_compile(
    capsys: CaptureFixture, tmp_path: Path, name: str
) -> None:
    target = tmp_path / f"cribcore-{name}"
    status, _, err = run(capsys, "plugins", "new", name, "--output", str(target))
    assert (status, err) == (0, "")
    for module in target.rglob("*.py"):
        compile(module.read_text(encoding="utf-8"), str(module), "exec")
    text = (target / f"cribcore_{name}.py").read_text(encoding="utf-8")
    assert f"class {name.capitalize()}Plugin:" in text
    assert f'{name} = "cribcore_{name}:{name.capitalize()}Plugin"' in (target / "pyproject.toml").read_text()


def test_spanish_help_prints_under_an_ascii_only_encoding() -> None:
    env = {**os.environ, "PYTHONIOENCODING": "ascii", "LANG": "C", "LC_ALL": "C"}
    env.pop("CRIBCORE_LANG", None)
    done = subprocess.run(
        ["cribbage", "--help", "--lang", "es"], capture_output=True, env=env, timeout=60, check=False
    )
    assert (done.returncode, done.stderr) == (0, b"")
    assert b"navegador y partidas con amigos en linea" in done.stdout
    done = subprocess.run(
        ["cribbage", "--lang", "es", "score", "5H", "5D", "JC", "QS", "4H"],
        capture_output=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.decode("ascii").startswith("cribbage score: error: falta la carta inicial: anade")


def test_the_package_never_imports_its_plugins_or_profiles_statically() -> None:
    """A static import of ``cribcore_plugins`` has mypy (and so the compiled build, setup.py) read
    whichever one is installed where the package is built: ``CRIBCORE_COMPILE=1 pip wheel .`` then
    failed in an environment that already had cribcore installed. They are imported by name."""
    import ast

    package = Path(__file__).resolve().parent.parent / "cribcore"
    static = []
    for module in package.rglob("*.py"):
        for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names = [node.module]
            else:
                continue
            static += [
                f"{module.name}:{node.lineno}"
                for name in names
                if name.split(".")[0] in ("cribcore_plugins", "cribcore_profiles")
            ]
    assert static == []


def test_the_benchmark_drives_openspiel_by_its_legal_actions_as_cribcore_is_driven(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Item 28: OpenSpiel's reference plays its ordinary loop, a uniform draw from ``legal_actions()`` at
    every step (chance nodes too), never the slower ``chance_outcomes()`` pairs."""
    import importlib.util
    import types

    class State:
        def __init__(self) -> None:
            self.steps = 0

        def is_terminal(self) -> bool:
            return self.steps == 10

        def is_chance_node(self) -> bool:
            return self.steps % 2 == 0

        def legal_actions(self) -> list[int]:
            return [0, 1, 2]

        def chance_outcomes(self) -> list[tuple[int, float]]:
            raise AssertionError("chance_outcomes() asked for")

        def apply_action(self, action: int) -> None:
            assert action in (0, 1, 2)
            self.steps += 1

    played: list[State] = []

    def new_initial_state() -> State:
        played.append(State())
        return played[-1]

    fake = types.ModuleType("pyspiel")
    fake.load_game = lambda name: types.SimpleNamespace(new_initial_state=new_initial_state)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "pyspiel", fake)
    path = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_engine.py"
    spec = importlib.util.spec_from_file_location("bench_engine_under_test", path)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert bench._openspiel_games(3) >= 0.0
    assert [state.steps for state in played] == [10, 10, 10]
