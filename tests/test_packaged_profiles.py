"""Packages ship profiles (the ``cribcore.profiles`` entry-point group): listed with their package,
loadable by name, a built-in name kept for the built-in profile, a clash between packages refused.

Each test installs distributions the way pip leaves them, without pip: a ``*.dist-info`` folder with
``METADATA`` and ``entry_points.txt`` in a folder put on ``sys.path``, next to the modules it names."""

from __future__ import annotations

import json
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from cribcore import pluginmanager
from cribcore.cli.main import main
from cribcore.packaged_profiles import ENTRY_POINT_GROUP, packaged_profiles
from cribcore.profiles import ProfileError, builtin_names, load_profile

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
SHIPPED = {
    # example folder: (distribution, module, profile file)
    "joker-cribbage": ("cribcore-joker-cribbage", "cribcore_joker_cribbage", "joker-cribbage.toml"),
    "captains-cribbage": ("cribcore-captains", "cribcore_captains", "captains.toml"),
    "auction-cribbage": ("cribcore-auction", "cribcore_auction", "auction.toml"),
    "one-eyed-jacks": ("cribcore-one-eyed-jacks", "cribcore_one_eyed_jacks", "one-eyed-jacks.toml"),
    "toss-fives": ("cribcore-toss-fives", "cribcore_toss_fives", "toss-fives.toml"),
}


class Site:
    """A folder on ``sys.path`` into which test distributions are "installed"."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.modules: list[str] = []
        """The modules installed here, for `on_path` to forget once the test is over."""

    def install(self, distribution: str, entry_points: str, modules: dict[str, str] | None = None) -> None:
        info = self.folder / f"{distribution.replace('-', '_')}-1.0.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(
            f"Metadata-Version: 2.1\nName: {distribution}\nVersion: 1.0\n", encoding="utf-8"
        )
        (info / "entry_points.txt").write_text(entry_points, encoding="utf-8")
        for module, text in (modules or {}).items():
            (self.folder / f"{module}.py").write_text(text, encoding="utf-8")
            self.modules.append(module)

    @classmethod
    def on_path(cls, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Site]:
        """An empty site on ``sys.path`` for one test (a fixture's body): afterwards the modules
        installed in it are forgotten and the plugin caches cleared."""
        folder = tmp_path / "site"
        folder.mkdir()
        monkeypatch.syspath_prepend(str(folder))
        pluginmanager.clear_caches()
        site = cls(folder)
        yield site
        for module in site.modules:
            sys.modules.pop(module, None)
        pluginmanager.clear_caches()


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Site]:
    yield from Site.on_path(tmp_path, monkeypatch)


@pytest.fixture
def examples(site: Site, monkeypatch: pytest.MonkeyPatch) -> Site:
    """The example packages, as ``pip install ./examples/NAME`` installs them."""
    for folder, (distribution, _, _) in SHIPPED.items():
        monkeypatch.syspath_prepend(str(EXAMPLES / folder))
        pyproject = tomllib.loads((EXAMPLES / folder / "pyproject.toml").read_text(encoding="utf-8"))
        groups = pyproject["project"]["entry-points"]
        text = "".join(
            f"[{group}]\n" + "".join(f"{name} = {value}\n" for name, value in entries.items())
            for group, entries in groups.items()
        )
        site.install(distribution, text)
    return site


def test_the_examples_ship_their_profiles_under_their_names(examples: Site) -> None:
    expected = {
        "joker-cribbage": ["cribcore-joker-cribbage"],
        "captains": ["cribcore-captains"],
        "auction": ["cribcore-auction"],
        "one-eyed-jacks": ["cribcore-one-eyed-jacks"],
        "toss-fives": ["cribcore-toss-fives"],
    }
    found = packaged_profiles()
    assert {name: [p.package for p in found[name]] for name in expected} == expected


@pytest.mark.parametrize("folder", sorted(SHIPPED))
def test_a_shipped_profile_is_the_examples_profile_file(examples: Site, folder: str) -> None:
    _, _, file = SHIPPED[folder]
    shipped = tomllib.loads(str(packaged_profiles()[load_profile(EXAMPLES / folder / file).name][0].source()))
    assert shipped == tomllib.loads((EXAMPLES / folder / file).read_text(encoding="utf-8"))
    assert load_profile(shipped["name"]) == load_profile(EXAMPLES / folder / file)


def test_profiles_list_shows_the_shipped_profiles_with_their_package(
    examples: Site, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["profiles", "list"]) == 0
    out = capsys.readouterr().out
    for line in (
        "joker-cribbage (from cribcore-joker-cribbage)",
        "captains (from cribcore-captains)",
        "auction (from cribcore-auction)",
        "one-eyed-jacks (from cribcore-one-eyed-jacks)",
        "toss-fives (from cribcore-toss-fives)",
    ):
        assert line in out
    assert main(["profiles", "list", "--json"]) == 0
    listed = {entry["name"]: entry["package"] for entry in json.loads(capsys.readouterr().out)}
    assert listed["auction"] == "cribcore-auction" and listed["standard"] is None
    assert list(listed)[: len(builtin_names())] == list(builtin_names())


def test_a_shipped_profile_plays_by_name(examples: Site, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["score", "X1", "5D", "5H", "JS", "--starter", "5S", "--profile", "joker-cribbage", "--json"]
    status = main(argv)
    captured = capsys.readouterr()
    assert status == 0, captured.err
    assert json.loads(captured.out)["total"] > 0
    assert captured.err == ""  # no warning: only a built-in profile's name can be shadowed


def test_the_one_eyed_jacks_profile_counts_by_name(
    examples: Site, capsys: pytest.CaptureFixture[str]
) -> None:
    """The example of examples/one-eyed-jacks/README.md, with the profile named instead of its file."""
    argv = ["score", "4C", "5D", "6H", "JS", "--starter", "5S", "--profile", "one-eyed-jacks", "--json"]
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["total"] == 24
    assert captured.err == ""


STANDARD_AGAIN = """name = "standard"
description = "Not the standard rules at all."
"""


def test_an_unknown_profile_names_the_shipped_ones_too(
    examples: Site, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(ProfileError, match=r"; from packages: auction, captains, joker-cribbage, "):
        load_profile("no-such-profile")
    for lang, words in (("en", "from packages: auction, "), ("es", "de paquetes: auction, ")):
        assert main(["stats", "--profile", "no-such-profile", "--lang", lang]) == 2
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and words in err and "toss-fives" in err


def test_a_built_in_name_stays_the_built_in_profile(site: Site, capsys: pytest.CaptureFixture[str]) -> None:
    site.install(
        "cribcore-shadow",
        f"[{ENTRY_POINT_GROUP}]\nstandard = cribcore_shipped_shadow:PROFILE\n",
        {"cribcore_shipped_shadow": f"PROFILE = {STANDARD_AGAIN!r}\n"},
    )
    assert load_profile("standard").locked
    assert main(["profiles", "list"]) == 0
    captured = capsys.readouterr()
    assert captured.err == (
        "cribbage: warning: profile 'standard' of cribcore-shadow is not used: "
        "a built-in profile has that name\n"
    )
    assert "cribcore-shadow" not in captured.out


def test_naming_a_shadowed_built_in_profile_plays_it_with_one_warning(
    site: Site, capsys: pytest.CaptureFixture[str]
) -> None:
    site.install(
        "cribcore-shadow",
        f"[{ENTRY_POINT_GROUP}]\nfive-card = cribcore_shipped_shadow:PROFILE\n",
        {"cribcore_shipped_shadow": "PROFILE = {'name': 'five-card', 'extends': 'standard'}\n"},
    )
    assert main(["score", "5H", "5D", "5S", "JC", "--starter", "5C", "--profile", "five-card", "--json"]) == 0
    captured = capsys.readouterr()
    assert captured.err == (
        "cribbage: warning: profile 'five-card' of cribcore-shadow is not used: "
        "a built-in profile has that name\n"
    )
    assert json.loads(captured.out)["total"] == 29


def test_a_name_two_packages_ship_is_refused_naming_both(site: Site) -> None:
    for package in ("cribcore-one", "cribcore-two"):
        module = "cribcore_shipped_" + package.split("-")[1]
        site.install(
            package,
            f"[{ENTRY_POINT_GROUP}]\nhouse = {module}:PROFILE\n",
            {module: "PROFILE = {'name': 'house', 'extends': 'standard'}\n"},
        )
    with pytest.raises(ProfileError, match=r"^profile 'house' is registered by several packages "):
        load_profile("house")
    with pytest.raises(ProfileError, match=r"\(cribcore-one, cribcore-two\); uninstall all but one$"):
        load_profile("house")


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("PROFILE = 42", "is not a profile (TOML text, a mapping or a TOML file), but int"),
        ("PROFILE = 'name = \"other\"'", "name: must be 'house', the name its package registers"),
        ("PROFILE = 'name = '", "TOML syntax error"),
        ("PROFILE = {'name': 'house', 'extends': 'base.toml'}", "extends: a packaged profile extends a"),
        ("PROFILE = {'name': 'house', 'plugins': ['nosuch']}", "plugins: unknown plugin 'nosuch'"),
    ],
)
def test_a_bad_shipped_profile_is_one_line_naming_its_package(site: Site, value: str, reason: str) -> None:
    site.install(
        "cribcore-bad",
        f"[{ENTRY_POINT_GROUP}]\nhouse = cribcore_shipped_bad:PROFILE\n",
        {"cribcore_shipped_bad": value + "\n"},
    )
    with pytest.raises(ProfileError) as raised:
        load_profile("house")
    assert str(raised.value).startswith("house (from cribcore-bad): ")
    assert reason in str(raised.value)


def test_a_shipped_profile_may_be_a_file_and_extend_another_shipped_one(site: Site, tmp_path: Path) -> None:
    toml = tmp_path / "quick.toml"
    toml.write_text('name = "quick"\nextends = "house"\n\n[rules]\ntarget = 61\n', encoding="utf-8")
    site.install(
        "cribcore-house",
        f"[{ENTRY_POINT_GROUP}]\nhouse = cribcore_shipped_house:HOUSE\n"
        "quick = cribcore_shipped_house:QUICK\n",
        {
            "cribcore_shipped_house": (
                "from pathlib import Path\n"
                "HOUSE = {'name': 'house', 'extends': 'five-card'}\n"
                f"QUICK = Path({str(toml)!r})\n"
            )
        },
    )
    quick = load_profile("quick")
    assert quick.rules.target == 61 and "five-card" in quick.plugins


def test_a_new_profile_extends_a_shipped_one_by_name(
    examples: Site, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output = tmp_path / "two-jokers.toml"
    argv = ["profiles", "new", "two-jokers", "--from", "joker-cribbage", "--set", "joker-cribbage.jokers=2"]
    assert main([*argv, "--output", str(output)]) == 0, capsys.readouterr().err
    assert tomllib.loads(output.read_text(encoding="utf-8"))["extends"] == "joker-cribbage"
    assert load_profile(output).options["joker-cribbage"]["jokers"] == 2
