"""Rule systems, looked up by name (the way python-chess finds a variant).

The systems that ship with Killbox are listed by name in ``_KNOWN`` so that
:func:`get_system` imports only the package asked for (starting the app then loads one
rule system, not four). Any other package under ``engine/rules/`` that registers a system
on import is still found, by importing it, when a name is not otherwise known.

One module naming scheme holds in every system package (``engine/rules/<system>/``): a
name two systems use means the same job in both (``board``, ``attack_math``, ``*_actions``...).
The names and their jobs are declared in the table "Module names in a system package" of
``docs/ARCHITECTURE.md``, which ``tests/engine/rules/test_module_roles.py`` checks against the
packages. Handlers live only in ``*_actions`` modules; any other name is one rule or piece
of state named by its subject (``deck``, ``hold``, ``stand_offs``), never a handler.

Inside a package, modules import each other at the top only, in one direction (no cycles,
no imports inside functions to dodge one); the import-linter contracts in
``pyproject.toml`` check it, with the engine's layers and the systems' independence.

>>> "spycraft" in system_names()
True
>>> get_system("spycraft").title
'Spycraft 2.0'
"""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

from engine.rules import editing as editing  # registers the GM's editing commands
from engine.rules import gm_overrides as gm_overrides  # registers the GM's overrides
from engine.rules.base import RuleSystem


class UnknownSystem(KeyError):
    """No rule system is registered under that name."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown rule system"


#: The bundled systems: registered name -> the package whose import registers it.
_KNOWN: dict[str, str] = {
    "spycraft": f"{__name__}.spycraft",
    "savage-worlds": f"{__name__}.savage_worlds",
    "cities-without-number": f"{__name__}.cities_without_number",
    "d20-firearms": f"{__name__}.d20_firearms",
}

#: The system Killbox starts in when it has no encounter to open (a blank map, a Universal
#: VTT map given on the command line): the bundled default encounter's. Once an encounter is
#: open, a new encounter or an imported map is for its system unless the GM picks another.
DEFAULT_SYSTEM = "spycraft"

_REGISTRY: dict[str, RuleSystem] = {}
_discovered = False


def register_system(system: RuleSystem | type[RuleSystem]) -> RuleSystem:
    """Register a system (class or instance) under its ``name``; returns the instance.

    Registering a second, different system under a taken name is an error.
    """
    instance = system() if isinstance(system, type) else system
    name = getattr(instance, "name", "")
    if not name:
        raise ValueError(f"{type(instance).__name__} has no name to register under")
    existing = _REGISTRY.get(name)
    if existing is not None and type(existing) is not type(instance):
        raise ValueError(f"a rule system named {name!r} is already registered")
    _REGISTRY[name] = instance
    return instance


def unregister_system(name: str) -> None:
    """Forget the system registered under ``name`` (a system defined by a test, after it)."""
    _REGISTRY.pop(name, None)


def _discover() -> None:
    """Import every package under engine/rules/ that is not a known bundled system."""
    global _discovered
    if _discovered:
        return
    bundled = set(_KNOWN.values())
    for module in pkgutil.iter_modules([str(Path(__file__).parent)]):
        qualified = f"{__name__}.{module.name}"
        if module.ispkg and qualified not in bundled:
            # An import error propagates (naming the broken package) and is retried next time.
            importlib.import_module(qualified)
    _discovered = True


def get_system(name: str) -> RuleSystem:
    """The registered system called ``name`` (e.g. "spycraft")."""
    if name not in _REGISTRY:
        package = _KNOWN.get(name)
        if package is not None:
            importlib.import_module(package)
        else:
            _discover()
    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(system_names()) or "none"
        raise UnknownSystem(f"no rule system called {name!r} (known: {known})") from None


def system_names() -> tuple[str, ...]:
    """Names of every system, sorted (the bundled ones are listed without importing them)."""
    _discover()
    return tuple(sorted(set(_REGISTRY) | set(_KNOWN)))


__all__ = [
    "DEFAULT_SYSTEM",
    "RuleSystem",
    "UnknownSystem",
    "get_system",
    "register_system",
    "system_names",
    "unregister_system",
]
