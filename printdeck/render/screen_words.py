"""The words of the classroom slides, in the languages they are written in: the screen
game's rules (for decks whose cards share one symbol, and two) and the slides' labels.

The one owner of these texts; a theme whose ``text.lang`` is not among
:data:`SCREEN_WORDS` (by its primary subtag: ``fr-CA`` is ``fr``) gets them in English.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ScreenWords:
    """The slides' words in one language.

    Attributes:
        heading: The screen game's name.
        rules: The screen game's rules by λ (the symbols two cards share: 1 or 2).
        round_label: ``{n}`` of ``{total}`` rounds.
        card_label: A card's number ``{n}``, counted from 1 as printed.
        answer_label: Said on the slide that shows the match.
        key_title: The answer key's heading.
    """

    heading: str
    rules: dict[int, str]
    round_label: str
    card_label: str
    answer_label: str
    key_title: str


SCREEN_WORDS: dict[str, ScreenWords] = {
    "en": ScreenWords(
        heading="On the big screen",
        rules={
            1: "For the whole class. The screen shows two cards; they share exactly one symbol. The first "
            "row (or team) to call out its name, and point to it on both cards, scores a point. The next "
            "slide rings the match, so everyone can check. Play to ten points, or until the slides run "
            "out; every card of the deck appears at least once.",
            2: "For the whole class. The screen shows two cards; they share exactly two symbols. The first "
            "row (or team) to call out both names, and point to them on both cards, scores a point. The "
            "next slide rings the two matches, so everyone can check. Play to ten points, or until the "
            "slides run out; every card of the deck appears at least once.",
        },
        round_label="Round {n} of {total}",
        card_label="card {n}",
        answer_label="Answer",
        key_title="Answer key",
    ),
    "fr": ScreenWords(
        heading="Sur grand écran",
        rules={
            1: "Pour toute la classe. L'écran montre deux cartes ; elles ont exactement un symbole en commun. "
            "Le premier rang (ou la première équipe) qui crie son nom et le montre sur les deux cartes "
            "marque un point. La diapositive suivante entoure le symbole commun : chacun peut vérifier. "
            "On joue en dix points, ou jusqu'à la dernière diapositive ; chaque carte du jeu apparaît au "
            "moins une fois.",
            2: "Pour toute la classe. L'écran montre deux cartes ; elles ont exactement deux symboles en "
            "commun. Le premier rang (ou la première équipe) qui crie leurs deux noms et les montre sur les "
            "deux cartes marque un point. La diapositive suivante entoure les deux symboles communs : "
            "chacun peut vérifier. On joue en dix points, ou jusqu'à la dernière diapositive ; chaque "
            "carte du jeu apparaît au moins une fois.",
        },
        round_label="Manche {n} sur {total}",
        card_label="carte {n}",
        answer_label="Réponse",
        key_title="Corrigé",
    ),
    "es": ScreenWords(
        heading="En la pantalla grande",
        rules={
            1: "Para toda la clase. La pantalla muestra dos cartas; tienen exactamente un símbolo en común. "
            "La primera fila (o equipo) que diga su nombre en voz alta y lo señale en las dos cartas gana "
            "un punto. La siguiente diapositiva rodea el símbolo común para que todos puedan comprobarlo. "
            "Se juega a diez puntos o hasta que se acaben las diapositivas; cada carta del mazo aparece al "
            "menos una vez.",
            2: "Para toda la clase. La pantalla muestra dos cartas; tienen exactamente dos símbolos en común. "
            "La primera fila (o equipo) que diga sus dos nombres en voz alta y los señale en las dos cartas "
            "gana un punto. La siguiente diapositiva rodea los dos símbolos comunes para que todos puedan "
            "comprobarlo. Se juega a diez puntos o hasta que se acaben las diapositivas; cada carta del "
            "mazo aparece al menos una vez.",
        },
        round_label="Ronda {n} de {total}",
        card_label="carta {n}",
        answer_label="Respuesta",
        key_title="Soluciones",
    ),
    "de": ScreenWords(
        heading="Auf der großen Leinwand",
        rules={
            1: "Für die ganze Klasse. Die Leinwand zeigt zwei Karten; sie haben genau ein Symbol gemeinsam. "
            "Die Reihe (oder das Team), die zuerst seinen Namen ruft und es auf beiden Karten zeigt, "
            "bekommt einen Punkt. Die nächste Folie kreist das gemeinsame Symbol ein, so kann jeder "
            "nachprüfen. Gespielt wird bis zehn Punkte oder bis die Folien zu Ende sind; jede Karte des "
            "Spiels kommt mindestens einmal vor.",
            2: "Für die ganze Klasse. Die Leinwand zeigt zwei Karten; sie haben genau zwei Symbole gemeinsam. "
            "Die Reihe (oder das Team), die zuerst beide Namen ruft und sie auf beiden Karten zeigt, "
            "bekommt einen Punkt. Die nächste Folie kreist die beiden gemeinsamen Symbole ein, so kann "
            "jeder nachprüfen. Gespielt wird bis zehn Punkte oder bis die Folien zu Ende sind; jede Karte "
            "des Spiels kommt mindestens einmal vor.",
        },
        round_label="Runde {n} von {total}",
        card_label="Karte {n}",
        answer_label="Antwort",
        key_title="Lösungen",
    ),
}
"""The slides' words by language (primary subtag)."""


def screen_words(lang: str | None) -> ScreenWords:
    """The slides' words in ``lang`` (a BCP 47 tag, e.g. ``fr-CA``) if they are written in
    it (:data:`SCREEN_WORDS`), else in English."""
    primary = (lang or "en").split("-", 1)[0].lower()
    return SCREEN_WORDS.get(primary, SCREEN_WORDS["en"])
