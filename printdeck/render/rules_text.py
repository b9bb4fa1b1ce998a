"""The words of the games: the rules sheet's sections (worded for the design's λ and for a
split deck), the note on symbols with several faces, and each game's rules by its short name
(the slides' title slide shows one)."""

from __future__ import annotations

from printdeck.render.screen_words import screen_words

RULES_TEXT: tuple[tuple[str, str], ...] = (
    (
        "Before you play",
        "{any_two} show exactly {shared} in common; sizes and angles differ, so look "
        "for the shape, not the size. Say {name_of_shared} out loud to claim a match. "
        "Shuffle before each game. {players}.",
    ),
    (
        "1. The Heap",
        "Give one card to each player, face down, and put the rest face up in a heap in the middle. "
        "Everyone turns their card over at once. Whoever first names {the_symbol} their own top card "
        "shares with the heap's top card takes that heap card and lays it on their own pile, which "
        "changes their top card. When the heap is gone, the player holding the most cards wins.",
    ),
    (
        "2. Empty Your Pile",
        "Put one card face up in the middle and deal the rest out evenly, face down. Players hold their "
        "pile and turn the top card over. Spot a match between your top card and the middle card, name "
        "{it}, and drop your card onto the middle: it becomes the new card to match. The first player "
        "with no cards left wins; the last one still holding cards loses the round.",
    ),
    (
        "3. Pass the Parcel",
        "Played in rounds. Each player gets a few face-down cards (three in the first round, more later). "
        "At the signal, everyone turns one card up. When you spot a match between your card and another "
        "player's, name {it} and put your card on theirs, so that player now has more to get rid of. "
        "The last player left with cards in hand collects every card that was passed and sets them "
        "aside; after the agreed number of rounds, the fewest collected cards wins.",
    ),
    (
        "4. Ring Around",
        "Played in rounds. Put one card face up in the centre and deal cards face up in a circle around "
        "it, one more than there are players. Everyone hunts at the same time for circle cards that "
        "share {a_symbol} with the centre card; name {the_match} and take the card. When no circle card is "
        "left, the round ends. Whoever took the most cards across all rounds wins.",
    ),
    (
        "5. Gift Giver",
        "Give each player one card face down and put the rest face up in the middle. Players turn their "
        "card over. When you spot a match between the middle card and another player's top card, name {it} "
        "and put the middle card on that player's pile. Your aim is to give cards away: when the middle "
        "runs out, the player with the fewest cards wins.",
    ),
    (
        "Tournament scoring",
        "Play the five games in a row (or any three). After each game rank the players: the winner scores "
        "as many points as there are players, second place one point fewer, and so on down to one point "
        "for last. Ties share the higher score. After the last game, the highest total wins; a tie is "
        "broken by one quick round of Empty Your Pile between the tied players.",
    ),
)


FACES_RULES_TEXT = {
    "mixed": (
        "One symbol, several faces",
        "A symbol of this deck may look different on the two cards that share it: {example}. They still match. "
        "Name the shared symbol in either form to claim it (the legend shows every face of each symbol).",
    ),
    "split": (
        "Two decks: A and B",
        "This deck is two decks. Deck A ({deck_a_marked}) shows every symbol's first face, deck B "
        "its second: {example}. Deal the two "
        "decks apart: in the games below the middle or heap cards come from deck A and the players' cards "
        "from deck B, so a face is matched with its partner. A card of A shares exactly {shared} "
        "with every card of B except its twin, which shows the same symbols: if twins meet, any "
        "symbol counts. As a game goes on, two cards of one deck may meet: they share exactly {shared} "
        "too, in the same face.",
    ),
}
"""The rules' note on a deck whose symbols have several faces, by ``deck.faces``."""

LAMBDA_WORDS: dict[int, dict[str, str]] = {
    1: {
        "shared": "one symbol",
        "name_of_shared": "the name of the shared symbol",
        "the_symbol": "the symbol",
        "it": "it",
        "a_symbol": "a symbol",
        "the_match": "the match",
        "its_name": "its name",
        "them": "it",
    },
    2: {
        "shared": "two symbols",
        "name_of_shared": "the names of both shared symbols",
        "the_symbol": "both symbols",
        "it": "both shared symbols",
        "a_symbol": "two symbols",
        "the_match": "both shared symbols",
        "its_name": "both names",
        "them": "them",
    },
}
"""The rules' words for λ, the symbols every two cards share (read from the design): a
match-2 deck's rules say two and ask for both shared symbols in every game."""


DECK_A_MARKED = {
    None: "its sheets say deck A",
    "lettered": "its sheets say deck A, and its backs A, in a colour of their own",
    "coloured": "its sheets say deck A, and its backs are in a colour of their own",
}
"""How a split deck's rules tell deck A's cards, by how the file prints their backs (a
split deck's backs differ: :func:`~printdeck.render.backs.back_decks`): none, titled with
the deck's letter (the title pattern), or only coloured (a picture, rings or dots)."""


ANY_TWO = {
    False: "Any two cards of this deck",
    True: "A card of deck A and a card of deck B (other than its twin)",
}
"""Which cards share the deck's symbols, by whether the deck is split into A and B
(``deck.faces: split``: twins show the same symbols)."""


MOST_PLAYERS = 8
"""The most players the rules name, for a deck of 32 cards or more."""
CARDS_A_PLAYER = 4
"""Cards a player needs for the games to last: a smaller deck names fewer players."""
_NUMBER_WORDS = ("Two", "Three", "Four", "Five", "Six", "Seven", "Eight")


def players_text(cards: int | None) -> str:
    """How many may play a deck of ``cards`` cards (``None``: a full deck), as the rules say
    it: "Two to eight players", "Two or three players" for 13 cards, "Two players" for 7."""
    most = MOST_PLAYERS if cards is None else max(2, min(MOST_PLAYERS, cards // CARDS_A_PLAYER))
    if most <= 3:
        return "Two players" if most == 2 else "Two or three players"
    return f"Two to {_NUMBER_WORDS[most - 2].lower()} players"


def _worded(
    section: tuple[str, str],
    match: int,
    split: bool = False,
    cards: int | None = None,
    example: str | None = None,
    backs: str | None = None,
) -> tuple[str, str]:
    if match not in LAMBDA_WORDS:
        raise ValueError(f"match: expected one of {', '.join(map(str, LAMBDA_WORDS))}, got {match!r}")
    heading, body = section
    words = {
        "any_two": ANY_TWO[split],
        "players": players_text(cards),
        "example": example or FACES_EXAMPLE,
        "deck_a_marked": DECK_A_MARKED[backs],
    }
    return heading, body.format(**LAMBDA_WORDS[match], **words)


def rules_sections(match: int = 1, split: bool = False, cards: int | None = None) -> tuple[tuple[str, str], ...]:
    """The rules sheet's (heading, text) sections for a deck of λ = ``match``, split into
    decks A and B (``deck.faces: split``) or not, of ``cards`` cards a deck (the players it
    names, :func:`players_text`; ``None``: a full deck).

    Raises:
        ValueError: ``match`` is not 1 or 2.
    """
    return tuple(_worded(section, match, split, cards) for section in RULES_TEXT)


FACES_EXAMPLE = "a picture on one card and its word on the other, a word and its translation, 3 × 4 and 12"
"""The faces note's examples for a deck that gives none of its own (see :func:`faces_rules`)."""


def faces_rules(
    faces: str, match: int = 1, example: tuple[str, str] | None = None, backs: str | None = None
) -> tuple[str, str]:
    """The rules' note on a deck whose symbols have several faces (``mixed``/``split``), its
    example the deck's own symbol's two faces (``('"3 + 3"', '"6"')``: ``"3 + 3" on one card
    and "6" on the other``, or in a split deck ``"3 + 3" in deck A and "6" in deck B``;
    default :data:`FACES_EXAMPLE`). A split deck's note says how its backs tell A from B
    when the file prints them (``backs``: ``lettered`` or ``coloured``, :data:`DECK_A_MARKED`)."""
    said = None
    if example is not None:
        a, b = example
        said = f"{a} in deck A and {b} in deck B" if faces == "split" else f"{a} on one card and {b} on the other"
    return _worded(FACES_RULES_TEXT[faces], match, example=said, backs=backs)


RULES = rules_sections(1)
"""The rules of a classic deck (λ = 1)."""
FACES_RULES = {faces: faces_rules(faces) for faces in FACES_RULES_TEXT}
"""The faces notes of a classic deck (λ = 1), by ``deck.faces``."""

_GAME_SECTIONS = {"heap": 1, "empty-your-pile": 2, "pass-the-parcel": 3, "ring-around": 4, "gift-giver": 5}


def games(match: int = 1) -> dict[str, tuple[str, str]]:
    """Every game's rules by its short name, worded for λ = ``match``: the screen game's
    English (:mod:`.screen_words`) and the rules sheet's table games."""
    sections = rules_sections(match)
    screen = screen_words("en")
    return {"screen": (screen.heading, screen.rules[match]), **{g: sections[i] for g, i in _GAME_SECTIONS.items()}}


GAMES = games(1)
"""Every game's rules by its short name (``printdeck slides --game``, the words of
``printdeck.choices.SlideGame``): the screen game and the five table games of the rules
sheet (their text is the sheet's own), for a classic deck."""


def game_rules(game: str, lang: str | None = None, match: int = 1) -> tuple[str, str]:
    """The (heading, text) of ``game`` (a key of :data:`GAMES`) for a deck of λ = ``match``:
    the screen game in ``lang`` where it is written in it (:data:`~.screen_words.SCREEN_WORDS`,
    else English); a table game in the rules sheet's English.

    Raises:
        ValueError: Unknown game, or ``match`` not 1 or 2.
    """
    if game not in GAMES:
        raise ValueError(f"game: expected one of {', '.join(GAMES)}, got {game!r}")
    if match not in LAMBDA_WORDS:
        raise ValueError(f"match: expected one of {', '.join(map(str, LAMBDA_WORDS))}, got {match!r}")
    if game == "screen":
        words = screen_words(lang)
        return words.heading, words.rules[match]
    heading, body = games(match)[game]
    return heading.split(". ", 1)[-1], body
