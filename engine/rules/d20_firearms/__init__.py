"""The d20 modern-firearms ruleset on the turn engine (system name ``d20-firearms``).

The action budget (``economy``: attack or movement actions per round, Full-Auto as three
actions at rising recoil) and every special attack action (``combat_rules``).
"""

from engine.rules.d20_firearms.system import SYSTEM, D20FirearmsSystem

__all__ = ["SYSTEM", "D20FirearmsSystem"]
