"""A result-entering process for tests/test_store_durability.py (run as a script).

    writer.py crash DB TRUTH SEED
        Enter results into the newest tournament of DB for ever (the test kills it): single
        results and multi-event batches, each one ``store.append``.  Every event carries its
        batch tag, its part and the batch size, and the first the tag as dedupe key, so the
        test can tell a whole batch from a torn one.  When the tournament is complete a new
        one is imported (``crash-N``), so a kill can also land in ``create``.  After each
        commit it prints ``committed TAG FIRST_ID COUNT``.

    writer.py enter DB SLUG PLAN ACTOR PAUSE
        Print ``ready``, wait for a line on stdin (so that several writers start together),
        then enter each ``[round, board, result, dedupe_key, correct]`` of the JSON file
        PLAN in its own transaction, printing ``ok R B ID``, ``noop R B`` or
        ``refused R B MESSAGE``, and waiting up to PAUSE seconds (at random) before the
        next, as people typing results do: without it SQLite's busy handler, which sleeps
        1, 2, 5, 10... ms between tries, lets one writer run through its whole plan before
        the others get a single transaction in, and the writes would not interleave.

TRUTH is a JSON list of ``[round, board, result]``: the result every board gets.
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

from ranking.errors import InputError
from ranking.event.log import Event, TournamentState, result_event
from tiebreak.store import Source, SQLiteStore

BATCH_SIZES = (1, 1, 2, 3, 4, 5)


def unfinished(state: TournamentState) -> list[tuple[int, int]]:
    return sorted(key for key, game in state.games.items() if game.result is None)


def batch(state: TournamentState, truth: dict, size: int, tag: str) -> list[Event]:
    """Results for up to ``size`` consecutive unfinished boards of one round, all tagged."""
    todo = unfinished(state)
    if not todo:
        return []
    chosen = [todo[0]]
    for key in todo[1:size]:
        if key != (chosen[-1][0], chosen[-1][1] + 1):
            break
        chosen.append(key)
    events = []
    for part, (round_number, board) in enumerate(chosen):
        event = result_event(state, round_number, board, truth[(round_number, board)])
        assert event is not None
        events.append(Event(event.kind, {**event.data, "batch": tag, "part": part, "size": len(chosen)}))
    return events


def crash(db: str, truth_file: str, seed: str) -> int:
    truth = {(r, b): result for r, b, result in json.loads(Path(truth_file).read_text(encoding="utf-8"))}
    rng = random.Random(seed)
    store = SQLiteStore(db)
    step = 0
    while True:
        slugs = store.slugs()
        slug = slugs[-1]
        if not unfinished(store.state(slug)):
            base = store.state(slugs[0]).base
            store.create(f"crash-{len(slugs)}", base, Source("cli:writer"))
            print(f"created crash-{len(slugs)}", flush=True)
            continue
        step += 1
        tag = f"{seed}:{step}"  # the seed differs from one writer to the next
        size = rng.choice(BATCH_SIZES)
        logged = store.append(slug, lambda state, size=size, tag=tag: batch(state, truth, size, tag),
                              Source("cli:writer", dedupe_key=tag))
        print(f"committed {tag} {logged[0].id} {len(logged)}", flush=True)


def enter(db: str, slug: str, plan_file: str, actor: str, pause: str) -> int:
    plan = json.loads(Path(plan_file).read_text(encoding="utf-8"))
    rng = random.Random(actor)
    store = SQLiteStore(db)
    store.state(slug)  # warm the cache: the other writers make it stale, as in the bot
    print("ready", flush=True)
    sys.stdin.readline()
    for round_number, board, result, key, correct in plan:
        time.sleep(rng.uniform(0, float(pause)))

        def decide(state, r=round_number, b=board, res=result, c=correct):
            event = result_event(state, r, b, res, correct=c)
            return [event] if event else []

        try:
            logged = store.append(slug, decide, Source(actor, dedupe_key=key))
        except InputError as error:
            print(f"refused {round_number} {board} {error}", flush=True)
            continue
        if logged:
            print(f"ok {round_number} {board} {logged[0].id}", flush=True)
        else:
            print(f"noop {round_number} {board}", flush=True)
    store.close()
    return 0


if __name__ == "__main__":
    mode, *arguments = sys.argv[1:]
    sys.exit({"crash": crash, "enter": enter}[mode](*arguments))
