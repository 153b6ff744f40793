"""Cities Without Number on the turn engine (system name ``cities-without-number``).

Side initiative (``initiative``), the Main/Move/On Turn/Instant economy (``economy``) and
the numbers of every common combat action (``combat_rules``).
"""

from engine.rules.cities_without_number.system import SYSTEM, CitiesWithoutNumberSystem

__all__ = ["SYSTEM", "CitiesWithoutNumberSystem"]
