"""Reading a token's stats through its system's declared stat block.

A system declares its stats once (:class:`engine.rules.base.StatSpec`: name, kind, range,
default) as a :class:`StatBlock`, and its rules read every stat through that block: a stat
the token leaves out is the schema's default, and a name the schema does not declare is an
:class:`UndeclaredStat` naming the token, the stat and the system, never a silent 0.

The block is a tuple of its specs, so whatever lists the stat block (the token editor's
form, the file loader's check) reads it as it reads any tuple.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from typing import Protocol, TypeVar

from engine.tokens import StatNames, StatValue, Token

#: What a stat reads as: a value, names, or None (no default: the rules derive it).
StatRead = StatValue | StatNames | None


class DeclaredStat(Protocol):
    """What the block needs of a schema entry (``engine.rules.base.StatSpec`` is one; this
    module stays below base, which re-exports it)."""

    @property
    def name(self) -> str: ...

    @property
    def default(self) -> StatRead: ...


_Spec = TypeVar("_Spec", bound=DeclaredStat, covariant=True)


class UndeclaredStat(KeyError):
    """A rule read a stat its system does not declare (a misspelling, or a stat missing
    from the schema): a fault in the rules, refused loudly rather than read as 0."""

    def __init__(self, system: str, token: Token, name: str, known: Iterable[str]) -> None:
        known = sorted(known)
        match = difflib.get_close_matches(name, known, n=1)
        hint = f" (did you mean {match[0]!r}?)" if match else ""
        self.system, self.token_id, self.stat = system, token.id, name
        self.message = (f"{token.name} ({token.id}): {system} declares no stat {name!r}{hint}; "
                        f"its stat block has {', '.join(known) or 'no stats'}")
        super().__init__(self.message)

    def __str__(self) -> str:  # KeyError would quote the whole message
        return self.message


class StatBlock(tuple[_Spec, ...]):
    """A system's stat schema (its ``StatSpec`` entries, in order) and the one way its
    rules read a token's stats: the token's value, else the declared default.

    ``system`` names the system in errors (its title).
    """

    system: str
    _defaults: dict[str, StatRead]

    def __new__(cls, system: str, specs: Iterable[_Spec]) -> StatBlock[_Spec]:
        block = super().__new__(cls, specs)
        block.system = system
        block._defaults = {spec.name: spec.default for spec in block}
        return block

    def __getnewargs__(self) -> tuple[str, tuple[_Spec, ...]]:  # copy and pickle
        return self.system, tuple(self)

    def declares(self, name: str) -> bool:
        return name in self._defaults

    def value(self, token: Token, name: str) -> StatRead:
        """The token's stat ``name``, else its declared default (None: the rules derive it)."""
        try:
            default = self._defaults[name]
        except KeyError:
            raise UndeclaredStat(self.system, token, name, self._defaults) from None
        return token.stats.get(name, default)

    def given(self, token: Token, name: str) -> bool:
        """Whether the token's own stat block holds ``name`` (a declared stat)."""
        if name not in self._defaults:
            raise UndeclaredStat(self.system, token, name, self._defaults)
        return name in token.stats

    def optional_number(self, token: Token, name: str) -> int | None:
        """A whole-number stat, or None when neither the token nor the schema gives one
        (a stat the rules derive, such as a defence worked out from a skill)."""
        value = self.value(token, name)
        if value is None:
            return None
        if isinstance(value, bool | int | float):
            return int(value)
        if isinstance(value, str):
            try:
                return int(value)
            except ValueError:
                pass
        raise ValueError(f"{token.name}: stat {name!r} must be a number, not {value!r}")

    def number(self, token: Token, name: str) -> int:
        """A whole-number stat (a flag counts as 0 or 1); one with no value and no default
        is an error: read such a stat with :meth:`optional_number` and derive it."""
        try:
            default = self._defaults[name]
        except KeyError:
            raise UndeclaredStat(self.system, token, name, self._defaults) from None
        value = token.stats.get(name, default)
        if type(value) is int:  # nearly every read: a hot path of previews
            return value
        if value is None:
            raise ValueError(f"{token.name}: {self.system} stat {name!r} has no default; "
                             "the rules must derive it")
        number = self.optional_number(token, name)
        assert number is not None
        return number

    def flag(self, token: Token, name: str) -> bool:
        value = self.value(token, name)
        if not isinstance(value, bool):
            raise ValueError(f"{token.name}: stat {name!r} must be true or false, not {value!r}")
        return value

    def text(self, token: Token, name: str) -> str:
        """A text stat; None (no default, none given) reads as empty text."""
        value = self.value(token, name)
        if value is None:
            return ""
        if isinstance(value, tuple):
            raise ValueError(f"{token.name}: stat {name!r} holds names, not one value")
        return str(value)

    def names(self, token: Token, name: str) -> StatNames:
        """A stat holding names, each kept whole."""
        value = self.value(token, name)
        if value is None:
            return ()
        if not isinstance(value, tuple):
            raise ValueError(f"{token.name}: stat {name!r} must hold names, not {value!r}")
        return value


def block_of(system: str, specs: tuple[_Spec, ...]) -> StatBlock[_Spec]:
    """``specs`` as a block (a system that declares a plain tuple of specs gets one)."""
    return specs if isinstance(specs, StatBlock) else StatBlock(system, specs)
