"""How small the layout packs a card's smallest symbol, against the estimate ``check`` uses.

``printdeck check`` lays a deck out only when ``printdeck.layout.may_pack_too_small`` says a
symbol may come out under the least size; this script measures, for bundled themes and
variants of them, the estimate (``smallest_size_estimate_mm``) beside the least ink size the
layout reaches (the square root of ink area of any card's smallest symbol), and their ratio
(``PACKED_SIZE_SHARE`` must stay under every ratio). Figures: bench/RESULTS.md.

Usage: python bench/calibrate_small_sizes.py THEME[:KEY=VALUE,...] ...
    e.g. words "words:card.diameter=60mm" "default:layout.size_ratio=0.3"
"""

from __future__ import annotations

import math
import sys

import yaml

import printdeck
from printdeck.artwork import silhouette, silhouettes
from printdeck.deck_plan import lay_out_plan, plan_deck
from printdeck.errors import PrintdeckError
from printdeck.layout.settings import LayoutSettings
from printdeck.layout.size_plan import smallest_size_estimate_mm
from printdeck.resources import data_root
from printdeck.theme import Theme


def variant(ref: str) -> Theme:
    """The bundled theme ``name`` of ``name:key.sub=value,...``, those keys changed."""
    name, _, changes = ref.partition(":")
    if not changes:
        return printdeck.load_theme(name)
    themes = data_root("themes")
    data = yaml.safe_load((themes / f"{name}.yaml").read_text(encoding="utf-8"))
    for change in changes.split(","):
        key, value = change.split("=", 1)
        section, field = key.split(".")
        data.setdefault(section, {})[field] = yaml.safe_load(value)
    return printdeck.load_theme(data, base_dir=themes)


def measure(theme: Theme) -> str:
    """The estimate, the least packed size and their ratio, or the layout's refusal."""
    plan = plan_deck(theme, prove=False)
    per_card = len(plan.cards[0])
    estimate_mm = smallest_size_estimate_mm(silhouettes(list(plan.symbols)), per_card, LayoutSettings.from_theme(theme))
    try:
        layouts = lay_out_plan(plan)
    except PrintdeckError as exc:
        return f"estimate {estimate_mm:.2f} mm, refused: {str(exc)[:90]}"
    by_id = {s.id: s for s in plan.symbols}
    packed_mm = min(
        p.box_mm[1] * math.sqrt(silhouette(by_id[p.symbol_id]).area) for card in layouts for p in card.placements
    )
    return f"estimate {estimate_mm:.2f} mm, packed {packed_mm:.2f} mm, ratio {packed_mm / estimate_mm:.3f}"


def main() -> None:
    for ref in sys.argv[1:] or ["default", "words"]:
        print(f"{ref}: {measure(variant(ref))}", flush=True)


if __name__ == "__main__":
    main()
