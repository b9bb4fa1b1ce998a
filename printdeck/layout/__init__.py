"""printdeck.layout: dense, varied, overlap-free cards judged on real silhouettes.

Public API: :class:`LayoutSettings`, :func:`layout_deck`, :func:`silhouette`
(and :class:`Silhouette`). Symbols are drawn by :mod:`printdeck.artwork`.

Modules: ``silhouette`` (tracing, cached) and ``distfield`` (distance bounds);
``cardstate``, ``place`` (first placement), ``pack`` (growth rounds), ``contacts``,
``compact`` and ``lpsolve`` (compaction by linear programming): one card; ``deck`` (size
planning across the deck), ``parallel`` (cards on worker processes, identical to
serial), ``cache`` (packed cards on disk), ``preview``.
"""

from printdeck.layout.deck import layout_deck
from printdeck.layout.settings import LayoutSettings
from printdeck.layout.silhouette import Silhouette, silhouette

__all__ = ["LayoutSettings", "Silhouette", "layout_deck", "silhouette"]
