"""The pictures in a real browser: headless Chromium (the Debian packages chromium and
chromium-driver) opens what `dipsat render`, `check --html` and `explore --html` write and
must show every board, with no error in the console."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from conftest import ROOT, slow
from PIL import Image
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait
from typer.testing import CliRunner

from solver.cli import app

pytestmark = slow  # a real browser

CHROMIUM = Path("/usr/bin/chromium")
F_CASES = ROOT / "cases" / "datc" / "6F.cases"
CHROMEDRIVER = Path("/usr/bin/chromedriver")
FLAGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def dipsat(*args) -> None:
    done = CliRunner().invoke(app, [str(a) for a in args])
    assert done.exit_code == 0, done.output


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    missing = [str(p) for p in (CHROMIUM, CHROMEDRIVER) if not p.exists()]
    if missing:
        pytest.fail(
            f"{' and '.join(missing)} not found: install the Debian packages chromium and "
            "chromium-driver (apt-get install -y chromium chromium-driver)",
            pytrace=False,
        )
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in [*FLAGS, f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}"]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    # An explicit driver path: Selenium Manager never looks for (or downloads) a driver.
    driver = webdriver.Chrome(options=options, service=Service(executable_path=str(CHROMEDRIVER)))
    driver.set_window_size(1400, 1000)
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> Path:
    """The pictures and pages to open, written by the dipsat command."""
    folder = tmp_path_factory.mktemp("pictures")
    dipsat("game", "new", folder / "opening.json")
    dipsat("render", folder / "opening.json", "--whole", "--out", folder / "opening.svg")
    dipsat("render", F_CASES, "--case", "6.F.16", "--out", folder / "6F16.svg")
    svg = (folder / "6F16.svg").read_text(encoding="utf-8")
    page = "<!doctype html>\n<html><head><meta charset='utf-8'><title>6.F.16</title></head>\n"
    (folder / "6F16.html").write_text(f"{page}<body>\n{svg}</body></html>\n", encoding="utf-8")
    dipsat("check", F_CASES, "--html", folder / "check-6F.html")
    dipsat("explore", F_CASES, "--case", "6.F.16", "--html", folder / "explore.html")
    book = ROOT / "tests" / "data" / "rulebooks" / "4A2-1982.toml"
    dipsat("compare-rules", "2025", book, F_CASES, "--html", folder / "compare.html")
    return folder


def show(browser, path: Path) -> None:
    """Open a file, wait for it to load, and leave nothing in the console from before."""
    browser.get_log("browser")
    browser.get(path.resolve().as_uri())
    # a large page may still be loading when get() returns on a busy machine
    WebDriverWait(browser, 60).until(
        lambda b: b.execute_script("return document.readyState") == "complete"
    )


def console_errors(browser) -> list[str]:
    return [e["message"] for e in browser.get_log("browser") if e["level"] == "SEVERE"]


def boards_shown(browser) -> int:
    """How many `svg.board` pictures there are, checking each is laid out with a size."""
    boards = browser.find_elements(By.CSS_SELECTOR, "svg.board")
    for board in boards:
        box = browser.execute_script("return arguments[0].getBoundingClientRect().toJSON()", board)
        assert box["width"] > 0 and box["height"] > 0, box
        assert board.is_displayed()
    return len(boards)


def colours_on_screen(browser) -> int:
    picture = Image.open(io.BytesIO(browser.get_screenshot_as_png()))
    assert picture.format == "PNG"
    return len(picture.convert("RGB").getcolors(1 << 24))


# Each file with the boards, provinces, units and orders it draws.  The HTML pages put each
# map once in a hidden `svg.shared-maps` and <use> it in every board; the check page draws
# each phase block of the 30 cases of 6F, the explore page the case and the three outcomes
# the editions reach (Pandin's paradox has no consistent resolution to draw).
SHOWN = {
    "opening.svg": (1, 75, 22, 0),
    "6F16.svg": (1, 75, 6, 6),
    "6F16.html": (1, 75, 6, 6),
    "check-6F.html": (31, 75, None, None),
    "explore.html": (4, 75, 24, 24),
    "compare.html": (22, 75, None, None),  # the 11 cases 1982's convoy rule changes, twice
}


@pytest.mark.parametrize("name", SHOWN)
def test_pictures_show_in_chromium(browser, files, name):
    boards, provinces, units, orders = SHOWN[name]
    show(browser, files / name)
    assert boards_shown(browser) == boards
    for selector, count in [
        ("g.province[data-province]", provinces),
        ("g.unit[data-place]", units),
        ("g.order[data-order]", orders),
    ]:
        found = len(browser.find_elements(By.CSS_SELECTOR, selector))
        assert found == count if count is not None else found > boards, selector
    assert colours_on_screen(browser) > 20
    assert console_errors(browser) == []
