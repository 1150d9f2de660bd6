#!/usr/bin/env python3
"""Builds the atlas of the first-turn option: `dakon solve start` over 1..9 holes x 1..14 seeds
under `dakon:no-first-turn-capture` and `dakon:no-first-turn-capture,traditional`.

`dakon verify` does not play the option (its opening needs the opening search of `dakon
solve`), so this runs `dakon solve` board by board: first with a time budget; a board solved
exactly is solved again with `--certificate`, which the independent checker reads back and
checks; a board the budget stops is recorded with the bounds the search proved, and no
certificate. Writes atlas/variants/<variant>/atlas.{jsonl,md} and certificates/, and the
variant's wall time into atlas/variants/first-turn-times.json.

    python3 scripts/first_turn_atlas.py --budget 2
"""

import argparse
import json
import os
import subprocess
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "atlas", "variants")
# Directory name -> rules name.
VARIANTS = {
    "first-turn": "dakon:no-first-turn-capture",
    "first-turn-traditional": "dakon:no-first-turn-capture,traditional",
}
HOLES = range(1, 10)
SEEDS = range(1, 15)
# The most a certificate's extraction and check may take: past it the value stands without one.
CERTIFICATE_SECONDS = 120


def solve(dakon, rules, holes, seeds, budget, tt_mb, certificate=None):
    """One `dakon solve start --json`; returns its JSON object."""
    command = [dakon, "solve", "start", "--holes", str(holes), "--seeds", str(seeds), "--rules", rules,
               "--threads", "1", "--tt-mb", str(tt_mb), "--time-limit", str(budget), "--json"]
    if certificate:
        command += ["--certificate", certificate]
    timeout = CERTIFICATE_SECONDS + budget if certificate else None
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)}: exit {done.returncode}: {done.stderr.strip()}")
    return json.loads(done.stdout)


def board(dakon, variant, rules, holes, seeds, budget, tt_mb):
    """The record of one board."""
    started = time.monotonic()
    solved = solve(dakon, rules, holes, seeds, budget, tt_mb)
    record = {"rules": rules, "holes": holes, "seeds": seeds, "exact": solved["exact"], "value": solved["value"],
              "lower": solved["lower"], "upper": solved["upper"], "budget": budget, "work": solved["work"],
              "certificate": None}
    if solved["exact"]:
        path = os.path.join("atlas", "variants", variant, "certificates", f"{variant}-{holes}x{seeds}.dkc")
        try:
            certified = solve(dakon, rules, holes, seeds, budget, tt_mb, certificate=path)
            record["certificate"] = certified["certificate"]
        except subprocess.TimeoutExpired:
            record["certificate"] = {"file": None, "problem": f"not written within {CERTIFICATE_SECONDS} s"}
    record["seconds"] = round(time.monotonic() - started, 3)
    return record


def table(records):
    """The atlas as a Markdown grid: the value, or the proven bounds; a mark where no certificate holds."""
    lines = ["| holes \\ seeds | " + " | ".join(str(s) for s in SEEDS) + " |",
             "|---|" + "---:|" * len(SEEDS)]
    for holes in HOLES:
        cells = []
        for seeds in SEEDS:
            r = records.get((holes, seeds))
            if r is None:
                cells.append("")
            elif r["exact"]:
                held = (r["certificate"] or {}).get("checked") is True
                cells.append(f"{r['value']:+d}" + ("" if held else " (no certificate)"))
            else:
                cells.append(f"{r['lower']:+d}..{r['upper']:+d}")
        lines.append(f"| {holes} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dakon", default=os.path.join(ROOT, "target", "release", "dakon"))
    parser.add_argument("--variants", nargs="*", default=list(VARIANTS), choices=list(VARIANTS))
    parser.add_argument("--budget", type=int, default=2, help="seconds of search per board")
    parser.add_argument("--tt-mb", type=int, default=512)
    args = parser.parse_args()
    times_path = os.path.join(OUT, "first-turn-times.json")
    times = json.load(open(times_path)) if os.path.exists(times_path) else {}
    for variant in args.variants:
        rules = VARIANTS[variant]
        os.makedirs(os.path.join(OUT, variant, "certificates"), exist_ok=True)
        started = time.monotonic()
        records = {}
        for holes in HOLES:
            for seeds in SEEDS:
                records[(holes, seeds)] = board(args.dakon, variant, rules, holes, seeds, args.budget, args.tt_mb)
                r = records[(holes, seeds)]
                shown = f"{r['value']:+d}" if r["exact"] else f"{r['lower']:+d}..{r['upper']:+d}"
                print(f"{rules} {holes}x{seeds}: {shown} in {r['seconds']} s", flush=True)
        wall = round(time.monotonic() - started, 1)
        times[variant] = {"rules": rules, "budget": args.budget, "seconds": wall}
        with open(os.path.join(OUT, variant, "atlas.jsonl"), "w") as out:
            for key in sorted(records):
                out.write(json.dumps(records[key], sort_keys=True) + "\n")
        exact = sum(r["exact"] for r in records.values())
        certified = sum(bool((r["certificate"] or {}).get("checked")) for r in records.values())
        with open(os.path.join(OUT, variant, "atlas.md"), "w") as out:
            out.write(f"# The atlas under `{rules}`\n\n"
                      f"Value of the start (player 0 to move, both first turns pending) for 1..9 holes a row and\n"
                      f"1..14 seeds a hole: the final store difference with perfect play, or `lower..upper`, the bounds\n"
                      f"proven when the {args.budget} s budget a board stopped the search. {exact} of {len(records)} boards exact, "
                      f"{certified} with a certificate that the independent checker holds (`certificates/`).\n\n"
                      f"Built by `python3 scripts/first_turn_atlas.py --budget {args.budget}` in {wall} s.\n\n")
            out.write(table(records) + "\n")
        with open(times_path, "w") as out:
            json.dump(times, out, indent=1, sort_keys=True)
            out.write("\n")


if __name__ == "__main__":
    main()
