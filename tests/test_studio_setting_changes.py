"""A studio setting change applied to the theme (``printdeck.studio.setting_changes``): saved,
refused at the key it is about, or saved with a problem that is not the change's; a new
seed and a re-roll are setting changes too. The workspace itself keeps the deck and its
saving, not what a setting change means."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from printdeck.studio import setting_changes
from printdeck.studio.setting_changes import MAX_SEED
from printdeck.studio.workspace import Refused, Workspace

WORDS = ["sun", "moon", "star", "tree", "fish", "bird", "boat"]


def _space(folder: Path, words: list[str] = WORDS, **settings: object) -> Workspace:
    folder.mkdir()
    theme = {**settings, "deck": {"symbols_per_card": 3}, "symbols": [{"text": w} for w in words]}
    (folder / "theme.yaml").write_text(yaml.safe_dump(theme), encoding="utf-8")
    return Workspace.open(folder)


def _saved(space: Workspace) -> dict[str, object]:
    return yaml.safe_load((space.folder / "theme.yaml").read_text(encoding="utf-8"))


def test_a_change_is_saved_and_a_new_shape_drops_the_old_ones_keys(tmp_path: Path) -> None:
    space = _space(tmp_path / "deck", card={"shape": "square", "size": "70mm", "corner_radius": "3mm"})
    rev = space.rev
    setting_changes.change_settings(space, {"card.shape": "hexagon", "card.orientation": "flat"})
    assert _saved(space)["card"] == {"shape": "hexagon", "size": "70mm", "orientation": "flat"}
    assert space.rev == rev + 1 and space.snapshot().problem is None


def test_a_refused_value_is_not_saved_and_shown_at_its_key(tmp_path: Path) -> None:
    space = _space(tmp_path / "deck")
    before = _saved(space)
    with pytest.raises(Refused) as refused:
        setting_changes.change_settings(space, {"card.diameter": "big"})
    assert refused.value.field_key == "card.diameter" and "card.diameter" in space.field_errors
    assert _saved(space) == before
    setting_changes.change_settings(space, {"card.diameter": "80mm"})
    assert "card.diameter" not in space.field_errors and _saved(space)["card"] == {"diameter": "80mm"}


def test_a_clash_with_another_setting_is_the_changes_but_too_few_symbols_is_not(tmp_path: Path) -> None:
    space = _space(tmp_path / "deck", card={"shape": "square"})
    with pytest.raises(Refused) as refused:  # "card.diameter: only round cards have one"
        setting_changes.change_settings(space, {"card.diameter": "80mm"})
    assert refused.value.field_key == "card.diameter"
    few = _space(tmp_path / "few", words=WORDS[:3])
    setting_changes.change_settings(few, {"paper.size": "letter"})  # saved: the symbols' problem, not the paper's
    assert _saved(few)["paper"] == {"size": "letter"} and few.snapshot().problem is not None


def test_a_new_seed_and_a_reroll_are_saved(tmp_path: Path) -> None:
    space = _space(tmp_path / "deck")
    seed = setting_changes.new_seed(space)
    assert 0 <= seed < MAX_SEED and _saved(space)["seed"] == seed
    assert [setting_changes.reroll_card(space, 2) for _ in range(2)] == [1, 2]
    assert _saved(space)["layout"] == {"reroll": {2: 2}}
    assert not hasattr(space, "change_settings")  # one home for setting changes
