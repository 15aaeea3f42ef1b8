"""Every page fits a phone and a desktop without sideways scrolling; glossary pages link the
entries their «См. наше …» references name."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from assistant.corpus.glossary import Glossary
from tests.browser.conftest import PHONE, SIZES, assert_fits_width

pytestmark = [pytest.mark.browser, pytest.mark.slow]
PAGES = ["/", "/agent", "/glossary/nvlink", "/glossary/tensor-parallelism", "/glossary/zero"]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("path", PAGES)
def test_page_fits_the_screen(page: Any, server: str, size: str, path: str) -> None:
    page.set_viewport_size(SIZES[size])
    page.goto(server + path)
    page.wait_for_load_state("networkidle")  # the widget has drawn itself
    assert_fits_width(page)
    assert page.errors == []


def test_closing_the_widget_on_a_phone_leaves_the_page_in_place(page: Any, server: str) -> None:
    page.set_viewport_size(PHONE)
    page.goto(server + "/")
    page.locator("#fg-panel").wait_for(state="visible")
    page.get_by_role("button", name="Закрыть").click()
    assert page.locator("#fg-panel").is_hidden()
    assert page.evaluate("[window.scrollX, document.documentElement.scrollLeft]") == [0, 0]
    assert_fits_width(page)
    toggle = page.get_by_role("button", name="Спросить ассистента").bounding_box()
    assert toggle["x"] >= 0 and toggle["x"] + toggle["width"] <= PHONE["width"]


def test_see_also_names_link_to_their_entries(page: Any, server: str) -> None:
    page.set_viewport_size(PHONE)
    page.goto(server + "/glossary/nvlink")
    text = page.locator("main p").nth(1)
    words = text.inner_text().replace("\u00a0", " ")
    assert "См. наше сравнение NVLink и PCIe." in words  # the sentence stays whole
    link = text.get_by_role("link", name="PCIe")
    assert link.get_attribute("href") == "/glossary/pcie-gen5"
    link.click()
    assert page.locator("h1").inner_text().startswith("PCIe Gen5")


def test_every_see_also_link_lands_on_an_entry(server: str, glossary: Glossary) -> None:
    by_slug = glossary.by_slug()
    linked = 0
    for entry in glossary.entries:
        if not entry.see_also:
            continue
        html = httpx.get(f"{server}/glossary/{entry.slug}").text
        body = html.split("<h1>", 1)[1].split("<h2>", 1)[0]  # the entry text, not the lists
        for slug in re.findall(r'href="/glossary/([a-z0-9-]+)"', body):
            assert slug in by_slug and slug != entry.slug
            assert httpx.get(f"{server}/glossary/{slug}").status_code == 200
            linked += 1
    assert linked >= 3
