"""Layout settings, read once from a theme."""

from __future__ import annotations

from dataclasses import dataclass

from printdeck.theme.model import Theme


@dataclass(frozen=True)
class LayoutSettings:
    """What the layout engine needs to know about the card and the theme's wishes.

    Attributes:
        safe_radius_mm: Radius of the safe zone (card diameter / 2 - safe margin), mm.
        gap_mm: Smallest allowed distance between two symbols' silhouettes, mm.
        size_ratio: Target smallest over largest symbol on a card (by square root of
            silhouette area); the size ladder spans 1 down to this value.
        sizes: Optional size ladder, relative, largest first (overrides ``size_ratio``
            for the spread).
        max_rotation_deg: ``None`` = any angle; ``0`` = upright; else ±this many degrees.
        attempts: Random positions tried per symbol when first placing it.
        rounds: Grow-and-shake rounds per card (more = denser, slower).
        min_size_mm: Smallest allowed symbol size (square root of its ink area, mm);
            a card whose smallest symbol ends up smaller is refused.
    """

    safe_radius_mm: float
    gap_mm: float = 1.0
    size_ratio: float = 0.5
    sizes: tuple[float, ...] | None = None
    max_rotation_deg: float | None = None
    attempts: int = 400
    rounds: int = 8
    min_size_mm: float = 3.0

    @classmethod
    def from_theme(cls, theme: Theme) -> LayoutSettings:
        """Read the ``card`` and ``layout`` sections of a theme.

        Args:
            theme: A loaded theme.

        Returns:
            The settings; ``safe_radius_mm`` = ``card.diameter/2 - card.safe_margin``.
        """
        card, lay = theme.spec.card, theme.spec.layout
        rot = lay.rotation
        max_rot: float | None
        if rot == "any":
            max_rot = None
        elif rot == "none":
            max_rot = 0.0
        else:
            max_rot = float(rot)
            if max_rot >= 180.0:
                max_rot = None
        return cls(
            safe_radius_mm=card.diameter_mm / 2.0 - card.safe_margin_mm,
            gap_mm=lay.gap_mm,
            size_ratio=lay.size_ratio,
            sizes=tuple(lay.sizes) if lay.sizes else None,
            max_rotation_deg=max_rot,
            attempts=lay.attempts,
        )
