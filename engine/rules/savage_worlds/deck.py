"""The Savage Worlds Action Deck: 52 cards and two Jokers dealt every round for initiative.

Cards act from high to low (Ace high, Two low); equal ranks are broken by suit, spades
first, then hearts, diamonds and clubs. A Joker beats every other card and lets its holder
act whenever they like that round with +2 to Trait and damage rolls; after a round in which
a Joker was dealt, every card goes back and the deck is shuffled.

The deck is a frozen value (draw pile and discards as cards) so the turn engine can store it
in the encounter (``combat_state``) and undo exactly. Shuffling draws from the encounter's
dice, never from the global random module.

>>> from engine.dice import SeededDice
>>> deck = ActionDeck.fresh().shuffled(SeededDice(seed=3))
>>> deck, hands = deck.deal(["ana", "bo"])
>>> len(deck.draw_pile), len(deck.discards)
(52, 0)
>>> sorted(hands) == ["ana", "bo"]
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum

from engine.dice import Dice, draw


class Suit(IntEnum):
    """Suits in tie-breaking order: a higher value acts first."""

    CLUBS = 1
    DIAMONDS = 2
    HEARTS = 3
    SPADES = 4


_SUIT_CODES = {Suit.CLUBS: "C", Suit.DIAMONDS: "D", Suit.HEARTS: "H", Suit.SPADES: "S"}
_RANK_CODES = {11: "J", 12: "Q", 13: "K", 14: "A"}
#: Joker ranks sit above every Ace; red is placed above black so the order is total
#: (the rules let both act any time, so the choice only decides who is listed first).
_JOKER_RANKS = {"RJ": 16, "BJ": 15}


@dataclass(frozen=True, slots=True, order=False)
class Card:
    """One Action Card. ``rank`` runs 2..14 (Ace high); Jokers have no suit."""

    rank: int
    suit: Suit | None = None

    def __post_init__(self) -> None:
        if self.suit is None and self.rank not in _JOKER_RANKS.values():
            raise ValueError(f"a card without a suit must be a Joker, not rank {self.rank}")
        if self.suit is not None and not 2 <= self.rank <= 14:
            raise ValueError(f"card rank must be 2..14 (Ace high), not {self.rank}")

    @property
    def is_joker(self) -> bool:
        return self.suit is None

    @property
    def sort_key(self) -> tuple[int, int]:
        """Higher keys act first."""
        return (self.rank, int(self.suit) if self.suit is not None else 5)

    @property
    def code(self) -> str:
        """Short code: ``AS`` (Ace of spades), ``10H``, ``2C``, ``RJ``/``BJ`` (Jokers)."""
        if self.suit is None:
            return "RJ" if self.rank == _JOKER_RANKS["RJ"] else "BJ"
        return _RANK_CODES.get(self.rank, str(self.rank)) + _SUIT_CODES[self.suit]

    @classmethod
    def from_code(cls, code: str) -> Card:
        text = code.strip().upper()
        if text in _JOKER_RANKS:
            return cls(_JOKER_RANKS[text])
        suit_by_code = {v: k for k, v in _SUIT_CODES.items()}
        rank_by_code = {v: k for k, v in _RANK_CODES.items()}
        if len(text) < 2 or text[-1] not in suit_by_code:
            raise ValueError(f"not an Action Card code: {code!r}")
        rank_text = text[:-1]
        if rank_text in rank_by_code:
            rank = rank_by_code[rank_text]
        elif rank_text.isdigit() and 2 <= int(rank_text) <= 10:
            rank = int(rank_text)
        else:
            raise ValueError(f"not an Action Card code: {code!r}")
        return cls(rank, suit_by_code[text[-1]])

    def __str__(self) -> str:
        if self.suit is None:
            return "Red Joker" if self.code == "RJ" else "Black Joker"
        names = {11: "Jack", 12: "Queen", 13: "King", 14: "Ace"}
        return f"{names.get(self.rank, str(self.rank))} of {self.suit.name.lower()}"


def full_deck() -> tuple[Card, ...]:
    """All 54 cards, highest first."""
    cards = [Card(rank, suit) for rank in range(14, 1, -1) for suit in reversed(Suit)]
    return (Card(_JOKER_RANKS["RJ"]), Card(_JOKER_RANKS["BJ"]), *cards)


@dataclass(frozen=True, slots=True)
class ActionDeck:
    """The deck between deals: what is left to draw, what was discarded, Joker seen."""

    draw_pile: tuple[Card, ...]
    discards: tuple[Card, ...] = ()
    #: A Joker came out this round: shuffle everything back at the end of it.
    joker_dealt: bool = False

    def __post_init__(self) -> None:
        codes = [c.code for c in (*self.draw_pile, *self.discards)]
        if len(codes) != len(set(codes)):
            raise ValueError("the Action Deck holds the same card twice")

    @classmethod
    def fresh(cls) -> ActionDeck:
        return cls(full_deck())

    def shuffled(self, dice: Dice, out: Iterable[Card] = ()) -> ActionDeck:
        """Every card not in someone's hand (``out``) shuffled back into the draw pile.

        A Fisher-Yates shuffle whose draws come from ``dice``, so a replay deals the same.
        """
        held = {c.code for c in out}
        cards = [c for c in full_deck() if c.code not in held]
        for i in range(len(cards) - 1, 0, -1):
            # A card draw, not a die: a GM typing dice faces is never asked for it.
            j = draw(dice, f"1d{i + 1}", "shuffling the Action Deck").total - 1
            if not 0 <= j <= i:
                raise ValueError(f"a shuffle draw must be between 1 and {i + 1}, not {j + 1}")
            cards[i], cards[j] = cards[j], cards[i]
        return ActionDeck(tuple(cards))

    def deal(
        self, who: Iterable[str], dice: Dice | None = None
    ) -> tuple[ActionDeck, dict[str, Card]]:
        """One card to each name, in the order given.

        If the draw pile runs dry mid-deal the discards are shuffled back in (with ``dice``;
        without it this is an error).
        """
        deck = self
        hands: dict[str, Card] = {}
        for name in who:
            if name in hands:
                raise ValueError(f"{name!r} is dealt twice in one round")
            if not deck.draw_pile:
                if dice is None:
                    raise ValueError("the Action Deck ran out and no dice were given to shuffle")
                deck = deck.shuffled(dice, out=hands.values())
                if not deck.draw_pile:
                    raise ValueError("more combatants than Action Cards")
            card, rest = deck.draw_pile[0], deck.draw_pile[1:]
            hands[name] = card
            deck = ActionDeck(rest, deck.discards, deck.joker_dealt or card.is_joker)
        return deck, hands

    def stacked(self, wanted: Sequence[Card | None]) -> ActionDeck:
        """The draw pile arranged so that the i-th card dealt is ``wanted[i]`` where given.

        A GM dealing physical cards types what each combatant drew; the rest of the pile
        keeps its shuffled order. A typed card must still be in the draw pile.
        """
        chosen = [c for c in wanted if c is not None]
        codes = [c.code for c in chosen]
        if len(codes) != len(set(codes)):
            raise ValueError("the same Action Card is typed for two combatants")
        pile_codes = {c.code for c in self.draw_pile}
        for card in chosen:
            if card.code not in pile_codes:
                raise ValueError(f"the {card} is not in the draw pile")
        rest = [c for c in self.draw_pile if c.code not in set(codes)]
        pile: list[Card] = []
        for wish in wanted:
            pile.append(wish if wish is not None else rest.pop(0))
        return ActionDeck((*pile, *rest), self.discards, self.joker_dealt)

    def swapped(self, given_back: Card | None, taken: Card) -> ActionDeck:
        """The deck after a combatant's card is swapped by hand: ``taken`` leaves the pile
        or the discards, the card handed back (if any) goes on the discards."""
        if taken.code not in {c.code for c in (*self.draw_pile, *self.discards)}:
            raise ValueError(f"the {taken} is in someone's hand, not in the deck")
        pile = tuple(c for c in self.draw_pile if c.code != taken.code)
        discards = tuple(c for c in self.discards if c.code != taken.code)
        if given_back is not None:
            discards = (*discards, given_back)
        return ActionDeck(pile, discards, self.joker_dealt or taken.is_joker)

    def discard(self, cards: Iterable[Card]) -> ActionDeck:
        return ActionDeck(self.draw_pile, (*self.discards, *cards), self.joker_dealt)

    def end_round(self, hands: Iterable[Card], dice: Dice) -> ActionDeck:
        """Discard this round's cards; after a Joker round, shuffle the whole deck."""
        deck = self.discard(hands)
        if deck.joker_dealt:
            return deck.shuffled(dice)
        return deck
