"""Cities Without Number on the turn engine (system name ``cities-without-number``).

Side initiative (``initiative``), the Main/Move/On Turn/Instant economy (``economy``) and
the numbers of every common combat action (``combat_rules``).
"""
