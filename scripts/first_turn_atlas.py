#!/usr/bin/env python3
"""Builds the atlas of the first-turn option: `dakon verify` over 1..9 holes x 1..14 seeds
under `dakon:no-first-turn-capture` and `dakon:no-first-turn-capture,traditional`, as
`scripts/variant_atlas.py` builds the other variants (its `build`).

Each start (both first turns pending) is solved by the opening search within the time budget
a board; every board gets a certificate of what was proven (format version 2, checked by the
independent checker), exact or bounds, unless writing it takes over --certificate-seconds. Writes atlas/variants/<variant>/atlas.{md,jsonl,svg} and
certificates/, and the variant's wall time into atlas/variants/first-turn-times.json.

    python3 scripts/first_turn_atlas.py --budget 2
"""

import argparse
import json
import os

from variant_atlas import OUT, ROOT, build

# Directory name -> rules name.
VARIANTS = {
    "first-turn": "dakon:no-first-turn-capture",
    "first-turn-traditional": "dakon:no-first-turn-capture,traditional",
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dakon", default=os.path.join(ROOT, "target", "release", "dakon"))
    parser.add_argument("--variants", nargs="*", default=list(VARIANTS), choices=list(VARIANTS))
    parser.add_argument("--budget", type=int, default=2, help="seconds of search per board")
    parser.add_argument("--tt-mb", type=int, default=512)
    # A certificate of bounds through the opening can take minutes: past this a board keeps its
    # proven value or bounds without one.
    parser.add_argument("--certificate-seconds", type=float, default=120)
    args = parser.parse_args()
    times_path = os.path.join(OUT, "first-turn-times.json")
    times = json.load(open(times_path)) if os.path.exists(times_path) else {}
    for variant in args.variants:
        rules = VARIANTS[variant]
        extra = ["--tt-mb", str(args.tt_mb), "--certificate-seconds", str(args.certificate_seconds)]
        seconds = build(os.path.abspath(args.dakon), variant, args.budget, 1, rules=rules, extra=extra)
        times[variant] = {"rules": rules, "budget": args.budget, "seconds": round(seconds, 1)}
        with open(times_path, "w") as out:
            json.dump(times, out, indent=1, sort_keys=True)
            out.write("\n")


if __name__ == "__main__":
    main()
