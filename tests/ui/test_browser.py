"""The inspector in a real headless Chromium (Debian's, driven by its chromedriver):
every page loads with seeded data and logs no console error, a search, a release from
quarantine, a forget and the `as of` control work end to end, no stored payload runs,
and a screenshot of each page is written to test-artifacts/ui/.

`.ci/run` installs Chromium; without it this test is skipped outside CI and fails in CI.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from pagemem import Memory, ScopedMemory
from pagemem.ui import create_ui

from ..server.test_rest import start
from .test_pages import PAYLOADS, TOKEN, seed

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "ui"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
QUERY = "tenant=acme&user=priya&agent="


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Memory]]:
    memory = Memory(str(tmp_path_factory.mktemp("ui") / "ui.db"))
    seed(memory)
    base, running, thread = start(create_ui(memory, token=TOKEN))
    assert running.started, "the inspector did not start"
    yield base, memory
    running.should_exit = True
    thread.join(timeout=10)
    memory.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[webdriver.Chrome]:
    if not (os.path.exists(CHROMIUM) and os.path.exists(DRIVER)):
        message = "Debian's chromium and chromium-driver are not installed (.ci/run installs them)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
        options.add_argument(flag)
    options.add_argument("--window-size=1280,1600")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(executable_path=DRIVER))
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


def visit(driver: webdriver.Chrome, url: str, shot: str) -> None:
    driver.get(url)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(ARTIFACTS / f"{shot}.png"))
    errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    assert not errors, errors
    with pytest.raises(NoAlertPresentException):
        driver.switch_to.alert.text  # noqa: B018  (no stored payload ran)


def said(me: ScopedMemory, text: str) -> bool:
    messages = me.recall.list(limit=1000) + me.recall.in_context()
    return any(text in m.content for m in messages)


def shows(driver: webdriver.Chrome, element: str, text: str) -> None:
    """Wait (a form's answer loads after the click returns) until the element says it."""
    WebDriverWait(driver, 15).until(
        lambda d: text in "".join(e.text for e in d.find_elements(By.ID, element))
    )


def test_the_inspector_end_to_end_in_chromium(
    server: tuple[str, Memory], browser: webdriver.Chrome
) -> None:
    base, memory = server
    me = memory.scope("acme", "priya")
    visit(browser, f"{base}/?token={TOKEN}", "scopes")
    assert browser.find_element(By.ID, "scopes").text.count("priya") == 1

    visit(browser, f"{base}/context?{QUERY}&max_tokens=3000", "context")
    assert browser.find_element(By.ID, "window-bars").is_displayed()
    assert "messages paged out" in browser.find_element(By.ID, "window-now").text
    assert browser.find_element(By.ID, "budget-curve").is_displayed()

    # a search typed into the form
    visit(browser, f"{base}/memory?{QUERY}", "memory")
    box = browser.find_element(By.NAME, "q")
    box.send_keys("where does Priya live now")
    box.submit()
    shows(browser, "notes", "bm25=")  # the ranked page, scores explained
    rows = browser.find_elements(By.CSS_SELECTOR, "#notes tbody tr")
    assert "Bristol" in rows[0].text
    browser.save_screenshot(str(ARTIFACTS / "memory-search.png"))

    # release a held note, then it is searchable
    visit(browser, f"{base}/review?{QUERY}", "review")
    (held,) = [r for r in me.archive.quarantined() if "IGNORE" in r.text]
    browser.find_element(By.ID, f"release-{held.id}").click()
    shows(browser, "done", f"released {held.id}")
    assert not me.archive.get(held.id).quarantined

    # forget: a preview first, then the confirmation
    form = browser.find_element(By.ID, "forget")
    form.find_element(By.NAME, "phrase").send_keys("locker 3 ")
    browser.find_element(By.ID, "forget-preview-button").click()
    shows(browser, "forget-preview", "locker 3 holds")
    assert said(me, "locker 3 holds")
    browser.save_screenshot(str(ARTIFACTS / "review-forget-preview.png"))
    browser.find_element(By.ID, "forget-confirm").click()
    shows(browser, "forgotten", "Forgot")
    assert not said(me, "locker 3 holds")

    # the as-of control: long ago nothing held; now the newer home does
    visit(browser, f"{base}/facts?{QUERY}", "facts")
    assert "Bristol" in browser.find_element(By.ID, "facts-held").text
    field = browser.find_element(By.NAME, "as_of")
    browser.execute_script("arguments[0].value = '2001-02-03T04:05'", field)
    field.submit()
    shows(browser, "facts-held", "No fact held then")
    browser.save_screenshot(str(ARTIFACTS / "facts-as-of.png"))
    first = me.archive.list()[0]
    visit(browser, f"{base}/facts?{QUERY}&id={first.id}", "facts-timeline")
    assert first.text in browser.find_element(By.ID, "timeline").text

    # every payload shows as text and none ran
    visit(browser, f"{base}/memory?{QUERY}", "memory-payloads")
    shown = browser.find_element(By.ID, "notes").text
    for payload in PAYLOADS:
        assert payload in shown
    assert browser.find_elements(By.CSS_SELECTOR, "#notes img, #notes script, #notes svg") == []
