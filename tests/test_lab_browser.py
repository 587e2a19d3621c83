"""The variant lab's HTML page in headless Chromium: it opens from a file with no request to any other
place, shows its charts, fits a phone's width, and speaks English or Spanish."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from cribcore.i18n import set_language
from cribcore.lab import LabResult, LabSetup, run_lab
from cribcore.lab_html import lab_html
from cribcore.profiles import load_profile

try:
    from playwright.sync_api import Browser, Request, expect, sync_playwright
except ImportError:  # pragma: no cover - CI installs it with the test extra
    if os.environ.get("CRIBCORE_REQUIRE_BROWSER"):
        raise
    pytest.skip("playwright is not installed (pip install -e '.[test]')", allow_module_level=True)

from .test_browser import CHROMIUM, CHROMIUM_ARGS


@pytest.fixture(scope="module")
def result() -> LabResult:
    standard = load_profile("standard")
    muggins = load_profile("muggins")
    return run_lab(LabSetup(muggins, standard, seed=4), 4, jobs=1)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.mark.parametrize(
    ("lang", "heading", "chart", "levels"),
    [
        ("en", "The variant lab: muggins against standard", "Win rates", "99.74% for each difference"),
        ("es", "El laboratorio de variantes", "Tasas de victoria", "del 99,74 % para cada diferencia"),
    ],
)
def test_the_page_opens_offline_with_its_charts(
    browser: Browser, result: LabResult, tmp_path: Path, lang: str, heading: str, chart: str, levels: str
) -> None:
    set_language(lang)
    try:
        page_file = tmp_path / f"lab-{lang}.html"
        page_file.write_text(lab_html(result), encoding="utf-8")
    finally:
        set_language("en")
    context = browser.new_context(viewport={"width": 390, "height": 844})
    requests: list[str] = []

    def seen(request: Request) -> None:
        requests.append(request.url)

    context.on("request", seen)
    page = context.new_page()
    page.goto(page_file.as_uri())
    expect(page.locator("h1")).to_contain_text(heading)
    expect(page.locator("html")).to_have_attribute("lang", lang)
    # Each side's intervals are 95 %, the differences' simultaneous over the 19 figures.
    expect(page.locator("p.levels")).to_contain_text(levels)
    charts = page.locator("svg.chart")
    expect(charts).to_have_count(7)
    expect(page.locator("h2").first).to_have_text(chart)
    for index in range(7):
        box = charts.nth(index).bounding_box()
        assert box is not None and 0 < box["width"] <= 390 and box["height"] > 0
    assert page.locator("svg.chart rect").count() > 20
    # Nothing scrolls sideways on a phone but the table's own box.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert requests == [page_file.as_uri()]
    context.close()
