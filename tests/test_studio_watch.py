"""printdeck studio and theme.yaml edited outside it (issue 28): an edit that loads is
taken in and shown ("theme.yaml changed outside: reloaded") and the next page edit keeps
it; one that does not load shows its error beside the field, nothing is written over it,
until the person chooses to keep the page's settings (the file's text is kept aside).
"""

from __future__ import annotations

from pathlib import Path

import yaml
from test_studio_browser import page, studio, sync_api, theme, wait_for

__all__ = ["page", "studio", "sync_api"]  # the module's fixtures and its skip


def edit_outside(folder: Path, card: dict) -> str:
    """Change the card's keys as an editor would; the new text."""
    doc = theme(folder)
    doc["card"] = {**(doc.get("card") or {}), **card}
    text = "# edited by hand\n" + yaml.safe_dump(doc, sort_keys=False)
    (folder / "theme.yaml").write_text(text, encoding="utf-8")
    return text


def test_an_outside_edit_that_loads_is_taken_in(page: object, studio: tuple[str, Path]) -> None:
    folder = studio[1]
    edit_outside(folder, {"diameter": "70mm"})
    page.wait_for_function("document.getElementById('set-card-diameter').value === '70mm'", timeout=15_000)
    assert page.inner_text("#saved") == "theme.yaml changed outside: reloaded"
    page.fill("#set-card-bleed", "3")
    page.press("#set-card-bleed", "Tab")
    wait_for(lambda: (theme(folder).get("card") or {}) == {"diameter": "70mm", "bleed": "3mm"}, "the page's edit")
    assert not list(folder.glob("theme.edited-outside*.yaml"))


def test_an_outside_edit_that_does_not_load_waits_for_a_choice(page: object, studio: tuple[str, Path]) -> None:
    folder = studio[1]
    text = edit_outside(folder, {"diameter": "huge"})
    page.wait_for_selector("#outside:not([hidden])", timeout=15_000)
    page.wait_for_function("document.getElementById('err-set-card-diameter').textContent !== ''")
    page.fill("#set-card-bleed", "2")
    page.press("#set-card-bleed", "Tab")
    page.wait_for_function("document.getElementById('saved').classList.contains('bad')")
    assert (folder / "theme.yaml").read_text(encoding="utf-8") == text  # nothing written over it
    page.click("#outside button:has-text('Keep the file')")
    page.wait_for_selector("#outside:has-text('Fix theme.yaml in your editor')")
    assert (folder / "theme.yaml").read_text(encoding="utf-8") == text
    page.click('#outside button:has-text("Keep the page\'s settings")')
    page.wait_for_selector("#outside", state="hidden")
    wait_for(lambda: (theme(folder).get("card") or {}).get("diameter") == "70mm", "the page's settings written")
    kept = [p.read_text(encoding="utf-8") for p in folder.glob("theme.*.yaml")]  # edited-outside or before-studio
    assert text in kept
