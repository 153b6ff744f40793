"""Play a few actions of the bundled Spycraft warehouse shoot-out from a script."""

import tempfile
from pathlib import Path

import engine
from engine.tokens import are_opponents

fight = engine.open_encounter(engine.bundled_map("warehouse"), seed=2026)
fight.apply(engine.Command("start_combat"))

for _ in range(3):
    who = fight.state.combat.active
    me = fight.state.token(who)
    print(f"{me.name} may:", ", ".join(spec.name for spec in fight.legal_actions(who)[:5]), "...")

    # Shoot the first opponent the rules allow; otherwise take a step.
    foes = [t for t in fight.state.tokens if are_opponents(me.side, t.side)]
    shots = [
        engine.Command.build("standard_attack", who, targets=[foe.id], weapon=me.weapons[0].name)
        for foe in foes
    ]
    legal = [shot for shot in shots if fight.preview(shot).legal]
    if legal:
        print("  ", fight.preview(legal[0]).summary)
        fight.apply(legal[0])  # rolled from the encounter's seed; or fight.apply(cmd, [17, 9])
    else:
        step = engine.Command.build("standard_move", who, squares=[(me.square.x, me.square.y - 1)])
        print("  ", fight.preview(step))
    fight.apply(engine.Command("end_turn"))

fight.undo()  # take back the last "end turn"
for line in fight.log[-6:]:
    print(f"[round {line.round}] {line.text}")
fight.save(Path(tempfile.gettempdir()) / "warehouse-after-three-turns.killbox")
