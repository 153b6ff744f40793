"""Rule systems, looked up by name (the way python-chess finds a variant).

Every package under ``engine/rules/`` that registers a system on import is found by
:func:`system_names` and :func:`get_system`; nothing else needs editing to add one.

>>> "spycraft" in system_names()
True
>>> get_system("spycraft").title
'Spycraft 2.0'
"""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

from engine.rules.base import RuleSystem


class UnknownSystem(KeyError):
    """No rule system is registered under that name."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown rule system"


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


def _discover() -> None:
    global _discovered
    if _discovered:
        return
    for module in pkgutil.iter_modules([str(Path(__file__).parent)]):
        if module.ispkg:
            # An import error propagates (naming the broken package) and is retried next time.
            importlib.import_module(f"{__name__}.{module.name}")
    _discovered = True


def get_system(name: str) -> RuleSystem:
    """The registered system called ``name`` (e.g. "spycraft")."""
    if name not in _REGISTRY:
        _discover()
    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY)) or "none"
        raise UnknownSystem(f"no rule system called {name!r} (known: {known})") from None


def system_names() -> tuple[str, ...]:
    """Names of every registered system, sorted."""
    _discover()
    return tuple(sorted(_REGISTRY))


__all__ = ["RuleSystem", "UnknownSystem", "get_system", "register_system", "system_names"]
