#!/usr/bin/env python3
"""Builds the variant atlas: `dakon verify` over 1..9 holes x 1..14 seeds under each single
Dakon option and the traditional combination, with and without the first-turn option, with
certificates, then the picture comparing them with the default atlas (atlas/atlas.jsonl) and
the report atlas/variants/README.md.

Usage (from the repository root, after `cargo build --release`):

    python3 scripts/variant_atlas.py                 # build every variant, then the report
    python3 scripts/variant_atlas.py --report-only   # redraw the picture and report only
    python3 scripts/variant_atlas.py --variants no-mikul --budget 60

Each variant's verify run writes atlas/variants/<variant>/atlas.{md,jsonl,svg} and its
certificates under atlas/variants/<variant>/certificates/; the rules, budget and wall time of
each run are kept in atlas/variants/build-times.json for the report.

The variants with `no-first-turn-capture` are solved from the start by the opening search,
which stays exhaustive over every first turn: they get a budget of their own
(--opening-budget, one thread, a 512 MiB table), and a board whose certificate takes longer
than --certificate-seconds to write keeps its proven value or bounds without one. Their
budget leaves the traditional claim's boards (n x n, 5 to 9) open, so each of those is also
asked the claim's question alone (`dakon solve --prove-win`, --claim-budget seconds, with a
certificate), into atlas/variants/<variant>/claim.jsonl and claim/, and 7 x 7, which the
issue wants exact under every variant, is solved alone (--seven-budget seconds, with a
certificate) into atlas/variants/<variant>/seven.json and seven/; its enumeration of every
first turn (hours on 7 x 7 traditional) keeps its progress in seven/7x7.walk, which a rerun
goes on from.
"""

import argparse
import json
import os
import platform
import subprocess
import sys
import time

# Directory under atlas/variants -> rules name.
VARIANTS = {
    "nembak-lander": "dakon:nembak-lander",
    "no-mikul": "dakon:no-mikul",
    "skip-origin": "dakon:skip-origin",
    "traditional": "dakon:traditional",
    "first-turn": "dakon:no-first-turn-capture",
    "first-turn-traditional": "dakon:no-first-turn-capture,traditional",
}
HOLES = range(1, 10)
SEEDS = range(1, 15)
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "atlas", "variants")


def build(dakon, variant, budget, threads, extra=()):
    """Runs one variant's verify into atlas/variants/<variant>/ (`extra`: more options);
    returns its wall time in seconds."""
    # Relative to the repository (the run's directory), so the records name their files
    # wherever the repository is cloned.
    directory = os.path.relpath(os.path.join(OUT, variant), ROOT)
    os.makedirs(os.path.join(ROOT, directory), exist_ok=True)
    command = [
        dakon, "verify", "--rules", VARIANTS[variant], "--holes", "1..9", "--seeds", "1..14",
        "--budget", str(budget), "--threads", str(threads), "--no-tables",
        "--out", os.path.join(directory, "atlas.md"), "--svg", os.path.join(directory, "atlas.svg"),
        "--certificates", os.path.join(directory, "certificates"), *extra,
    ]
    print("+", " ".join(command), file=sys.stderr, flush=True)
    started = time.monotonic()
    subprocess.run(command, check=True, cwd=ROOT)
    return time.monotonic() - started


CLAIM_BOARDS = range(5, 10)


def solve_start(dakon, variant, n, budget, certificate, extra=()):
    """`dakon solve` of the start of n x n under `variant` (`extra`: more options) within `budget`
    seconds, one thread, a 1 GiB table, with a certificate at `certificate` (relative to the
    repository); returns its JSON answer."""
    command = [dakon, "solve", "start", "--holes", str(n), "--seeds", str(n), "--rules", VARIANTS[variant], *extra,
               "--time-limit", str(budget), "--threads", "1", "--tt-mb", "1024", "--no-tables",
               "--certificate", certificate, "--json"]
    print("+", " ".join(command), file=sys.stderr, flush=True)
    return json.loads(subprocess.run(command, check=True, cwd=ROOT, capture_output=True, text=True).stdout)


def prove_claims(dakon, variant, budget):
    """Asks each board n x n (5 to 9) of `variant` whether the first player wins
    (`dakon solve --prove-win` within `budget` seconds, with a certificate), into
    atlas/variants/<variant>/claim.jsonl; returns the wall time in seconds."""
    directory = os.path.relpath(os.path.join(OUT, variant), ROOT)
    os.makedirs(os.path.join(ROOT, directory, "claim"), exist_ok=True)
    started = time.monotonic()
    with open(os.path.join(ROOT, directory, "claim.jsonl"), "w") as out:
        for n in CLAIM_BOARDS:
            answer = solve_start(dakon, variant, n, budget, os.path.join(directory, "claim", f"{n}x{n}.dkc"), ["--prove-win"])
            record = {"holes": n, "seeds": n, "rules": VARIANTS[variant], "at_least": answer["at_least"],
                      "holds": answer["holds"], "seconds": round(answer["seconds"], 2), "certificate": answer["certificate"]}
            out.write(json.dumps(record, sort_keys=True) + "\n")
    return time.monotonic() - started


def solve_seven(dakon, variant, budget):
    """Solves 7 x 7 of `variant` alone (`dakon solve` within `budget` seconds, with a certificate
    of what it proves) into atlas/variants/<variant>/seven.json; returns the wall time in
    seconds."""
    directory = os.path.relpath(os.path.join(OUT, variant), ROOT)
    os.makedirs(os.path.join(ROOT, directory, "seven"), exist_ok=True)
    # The enumeration of every first turn, if the solve needs one, keeps its progress in a
    # committed checkpoint: a budget too short for it leaves the walks done for the next run.
    walk = ["--take-all-checkpoint", os.path.join(directory, "seven", "7x7.walk")] if "no-first-turn-capture" in VARIANTS[variant] else []
    started = time.monotonic()
    answer = solve_start(dakon, variant, 7, budget, os.path.join(directory, "seven", "7x7.dkc"), walk)
    record = {"holes": 7, "seeds": 7, "rules": VARIANTS[variant], "exact": answer["exact"], "value": answer["value"],
              "lower": answer["lower"], "upper": answer["upper"], "seconds": round(answer["work"]["seconds"], 2),
              "take_all_enumeration": answer["work"]["take_all_enumeration"], "certificate": answer["certificate"]}
    with open(os.path.join(ROOT, directory, "seven.json"), "w") as out:
        out.write(json.dumps(record, sort_keys=True) + "\n")
    return time.monotonic() - started


def records(path):
    """(holes, seeds) -> the verify record, from a .jsonl file."""
    table = {}
    with open(path) as lines:
        for line in lines:
            record = json.loads(line)
            table[(record["holes"], record["seeds"])] = record
    return table


def shown(record):
    """A board's value as the reports write it: exact, or lower..upper."""
    if record["exact"]:
        return f"{record['value']:+d}"
    return f"{record['lower']:+d}..{record['upper']:+d}"


def verdict(record):
    """win, draw, loss, or None while the bounds leave more than one open."""
    lower, upper = record["lower"], record["upper"]
    if lower > 0:
        return "win"
    if upper < 0:
        return "loss"
    if lower == upper == 0:
        return "draw"
    return None


def colour(difference, scale):
    """Blue when the variant is better for the first player, red when worse, white when equal."""
    if difference is None:
        return "#d9d9d9"
    t = max(-1.0, min(1.0, difference / scale))
    if t >= 0:
        r, g, b = 255 - int(185 * t), 255 - int(125 * t), 255
    else:
        r, g, b = 255, 255 - int(140 * -t), 255 - int(140 * -t)
    return f"#{r:02x}{g:02x}{b:02x}"


def changes_winner(record, base):
    """Whether a board's winner differs from the default's, both decided by their bounds."""
    ours, theirs = verdict(record), verdict(base)
    return ours is not None and theirs is not None and ours != theirs


def picture(default, variants):
    """Small multiples: one grid per variant, each cell the variant's value, coloured by its
    difference from the default; a thick outline where the first player's verdict changes."""
    cell_w, cell_h, gap, left, top = 34, 22, 40, 40, 70
    panel_w, panel_h = cell_w * len(SEEDS), cell_h * len(HOLES)
    rows = (len(variants) + 1) // 2
    width = left + 2 * panel_w + gap + 20
    height = top + rows * (panel_h + 50) + 40
    # Most differences are a few seeds and a few are hundreds: colour saturates at 40 seeds so
    # that the small ones still show.
    scale = 40
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           '<text x="20" y="26" font-size="18" font-weight="bold">Dakon\'s variants: the first player\'s value on each board, against the default rules</text>',
           f'<text x="20" y="48" font-size="12">Cell: the variant\'s value (first player − second), or its proven bounds. Colour: variant − default (blue: better for the first player, red: worse; full colour from ±{scale}; grey: bounds only). Thick outline: the winner changes.</text>']
    for i, (name, table) in enumerate(variants.items()):
        x0 = left + (i % 2) * (panel_w + gap)
        y0 = top + (i // 2) * (panel_h + 50) + 20
        out.append(f'<text x="{x0}" y="{y0 - 8}" font-size="14" font-weight="bold">{VARIANTS[name]}</text>')
        for s in SEEDS:
            out.append(f'<text x="{x0 + (s - 1) * cell_w + cell_w / 2}" y="{y0 + panel_h + 14}" font-size="9" text-anchor="middle">{s}</text>')
        for n in HOLES:
            y = y0 + (n - 1) * cell_h
            out.append(f'<text x="{x0 - 6}" y="{y + cell_h / 2 + 4}" font-size="9" text-anchor="end">{n}</text>')
            for s in SEEDS:
                x = x0 + (s - 1) * cell_w
                record, base = table.get((n, s)), default.get((n, s))
                difference = record["value"] - base["value"] if record and base and record["exact"] and base["exact"] else None
                changed = record and base and changes_winner(record, base)
                stroke = 'stroke="black" stroke-width="2.5"' if changed else 'stroke="#999" stroke-width="0.5"'
                out.append(f'<rect x="{x}" y="{y}" width="{cell_w}" height="{cell_h}" fill="{colour(difference, scale)}" {stroke}/>')
                label = shown(record) if record else "?"
                size = 9 if len(label) <= 4 else 6 if len(label) <= 7 else 5
                out.append(f'<text x="{x + cell_w / 2}" y="{y + cell_h / 2 + 3}" font-size="{size}" text-anchor="middle">{label}</text>')
        out.append(f'<text x="{x0 + panel_w / 2}" y="{y0 + panel_h + 28}" font-size="10" text-anchor="middle">seeds per hole (rows: holes per row)</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def report(default, variants, claims, sevens, times, command):
    lines = ["# Dakon's variants: does the first player's win survive every reading of the rules?", ""]
    lines += ["Each variant (`docs/rules.md`, \"Dakon's variants\") solved over 1..9 holes × 1..14 seeds per hole",
              "with the first player to move, as the default atlas (`atlas/atlas.md`) is. Values are final store",
              "differences, first player minus second; `lower..upper` where the time budget stopped the search",
              "with only bounds proven. Every value and every bound with a certificate is confirmed by `dakon check`.", ""]
    lines += ["![values per variant, coloured by the difference from the default](compare.svg)", ""]
    lines += ["## Build", "",
              "One command builds the whole set (release binary; it runs each variant's `dakon verify` in turn and",
              "then writes `compare.svg` and this page):", "",
              "```", command, "```", "",
              "| variant | budget a board | threads | wall time | boards exact | boards with bounds only | certificates | runs alone |",
              "|---|---:|---:|---:|---:|---:|---:|---:|"]
    total = 0.0
    for name, table in variants.items():
        run = times.get(name)
        exact = sum(1 for r in table.values() if r["exact"])
        certified = sum(1 for r in table.values() if r.get("certificate"))
        if run:
            total += run["seconds"] + run.get("claim_seconds", 0.0) + run.get("seven_seconds", 0.0)
            timing = f"{run['budget']} s | {run['threads']} | {run['seconds']:.0f} s"
        else:
            timing = "| | not recorded"
        claim_runs = f"{run['claim_seconds']:.0f} s ({run.get('claim_budget', 600)} s a board)" if run and "claim_seconds" in run else ""
        if run and "seven_seconds" in run:
            claim_runs += f" + {run['seven_seconds']:.0f} s (7 × 7)"
        lines.append(f"| `{VARIANTS[name]}` | {timing} | {exact} | {len(table) - exact} | {certified} | {claim_runs} |")
    lines += ["", f"Total: {total:.0f} s on {platform.machine()} ({os.cpu_count()} cores), measured on a machine shared with",
              "other builds: the hosts and loads are in `docs/benchmarks/variant-atlas.md`.", ""]
    lines += ["## Which boards change winner", "",
              "A board changes winner when the first player's result (win, draw or loss) differs from the default's;",
              "a board whose bounds leave the result open is counted apart, as undecided.", ""]
    for name, table in variants.items():
        changed, undecided = [], 0
        for n in HOLES:
            for s in SEEDS:
                record, base = table.get((n, s)), default.get((n, s))
                if record and base and changes_winner(record, base):
                    changed.append(f"{n}×{s} ({shown(base)} → {shown(record)})")
                elif record and verdict(record) is None:
                    undecided += 1
        same = sum(1 for b in table if table[b]["exact"] and default[b]["exact"] and table[b]["value"] == default[b]["value"])
        open_note = f"; {undecided} undecided" if undecided else ""
        lines.append(f"- `{VARIANTS[name]}`: {len(changed)} of {len(table)} boards change winner{open_note}; {same} keep exactly the default's value." +
                     (" " + ", ".join(changed) + "." if changed else ""))
    lines += ["", "## The traditional claim: the first player wins on 5 to 9 holes with as many seeds as holes", "",
              "| holes × seeds | dakon | " + " | ".join(VARIANTS[n] for n in variants) + " |",
              "|---|---:|" + "---:|" * len(variants)]
    fails = {name: [] for name in variants}
    missing = {name: [] for name in variants}
    for n in CLAIM_BOARDS:
        row = [f"{n}×{n}", shown(default[(n, n)])]
        for name, table in variants.items():
            record, asked = table.get((n, n)), claims.get(name, {}).get((n, n))
            if n == 7 and name in sevens:
                record = sevens[name]
            cell = shown(record) if record else "not built"
            wins, loses = record is not None and record["lower"] > 0, record is not None and record["upper"] <= 0
            if asked is not None and asked["holds"] is not None and not (wins or loses):
                wins, loses = asked["holds"], not asked["holds"]
                cell += "; wins" if wins else "; does not win"
            if loses:
                fails[name].append(f"{n}×{n}")
            elif not wins:
                missing[name].append(f"{n}×{n}")
            row.append(cell)
        lines.append("| " + " | ".join(row) + " |")
    lines.append("")
    if claims:
        lines += ["\"wins\" / \"does not win\": the claim's question asked alone (`dakon solve --prove-win`, a",
                  "certificate each, `<variant>/claim.jsonl`) where the atlas's budget left the board open.", ""]
    for name in variants:
        if fails[name]:
            lines.append(f"- `{VARIANTS[name]}`: the claim fails on {', '.join(fails[name])}.")
        elif missing[name]:
            lines.append(f"- `{VARIANTS[name]}`: the claim holds where decided; {', '.join(missing[name])} not decided.")
        else:
            lines.append(f"- `{VARIANTS[name]}`: the claim holds on every board 5×5 to 9×9.")
    seven = [f"`{VARIANTS[name]}` {shown(sevens.get(name, t[(7, 7)]))}" for name, t in variants.items()]
    lines += ["", "7 × 7 under each variant: " + ", ".join(seven) + f" (default {shown(default[(7, 7)])})" +
              (": under the first-turn variants solved alone (`dakon solve`, a certificate each, `<variant>/seven.json`)."
               if sevens else "."), ""]
    for name, record in sevens.items():
        walk = record.get("take_all_enumeration")
        if walk:
            decided = "every walk done" if walk["walks_done"] == walk["walks"] else f"{walk['walks_done']} of {walk['walks']} walks done"
            if walk.get("decision") == "found":
                decided += ", found the take-all turn " + " ".join(str(hole) for hole in walk["turn"]) + " (in the certificate)"
            lines += [f"`{VARIANTS[name]}` 7 × 7: whether a first turn takes every seed, by the enumeration of every",
                      f"state of player 0's first turn: {walk['turn_states']:,} states, {decided}, {walk['seconds']:.0f} s over",
                      f"all its runs (`{name}/seven/7x7.walk` keeps them; a rerun goes on from it)."]
            if record["upper"] < 2 * 7 * 7:
                lines += ["A certificate cannot hold that exhaustion, so the one of this board proves the lower bound, and the",
                          "upper bound of all seeds."]
            lines.append("")
    lines += ["## Values of every board", ""]
    for name, table in variants.items():
        lines += [f"### `{VARIANTS[name]}`", "", "| holes \\ seeds | " + " | ".join(str(s) for s in SEEDS) + " |",
                  "|---:|" + "---:|" * len(SEEDS)]
        for n in HOLES:
            lines.append(f"| **{n}** | " + " | ".join(shown(table[(n, s)]) if (n, s) in table else "?" for s in SEEDS) + " |")
        lines += ["", f"Every board with its opening, proof and certificate: [{name}/atlas.md]({name}/atlas.md).", ""]
    lines += ["Every certificate is checked again by the test `tests/variant_atlas.rs` (`dakon check` on all of them).", ""]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dakon", default=os.path.join(ROOT, "target", "release", "dakon"))
    parser.add_argument("--variants", nargs="*", default=list(VARIANTS), choices=list(VARIANTS))
    parser.add_argument("--budget", type=int, default=300, help="seconds of search per board")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--opening-budget", type=int, default=2,
                        help="seconds of search per board under no-first-turn-capture (one thread)")
    parser.add_argument("--tt-mb", type=int, default=512, help="the opening search's table")
    parser.add_argument("--certificate-seconds", type=float, default=120,
                        help="under no-first-turn-capture, past this a board keeps its result without a certificate")
    parser.add_argument("--claim-budget", type=int, default=600,
                        help="seconds of each --prove-win run on the claim's boards under no-first-turn-capture")
    parser.add_argument("--seven-budget", type=int, default=600,
                        help="seconds of the run of 7 x 7 alone under no-first-turn-capture")
    parser.add_argument("--parts", nargs="*", default=["atlas", "claim", "seven"], choices=["atlas", "claim", "seven"],
                        help="what to build of each variant: the atlas; under no-first-turn-capture also the claim's boards and 7 x 7 alone")
    parser.add_argument("--report-only", action="store_true")
    args = parser.parse_args()
    times_file = os.path.join(OUT, "build-times.json")
    times = json.load(open(times_file)) if os.path.exists(times_file) else {}
    if not args.report_only:
        for variant in args.variants:
            if "no-first-turn-capture" in VARIANTS[variant]:
                budget, threads = args.opening_budget, 1
                extra = ["--tt-mb", str(args.tt_mb), "--certificate-seconds", str(args.certificate_seconds)]
            else:
                budget, threads, extra = args.budget, args.threads, []
            run = times.setdefault(variant, {})
            if "atlas" in args.parts:
                seconds = build(args.dakon, variant, budget, threads, extra)
                run.update({"rules": VARIANTS[variant], "budget": budget, "threads": threads, "seconds": round(seconds, 1)})
            if "no-first-turn-capture" in VARIANTS[variant] and "claim" in args.parts:
                run["claim_seconds"] = round(prove_claims(args.dakon, variant, args.claim_budget), 1)
                run["claim_budget"] = args.claim_budget
            if "no-first-turn-capture" in VARIANTS[variant] and "seven" in args.parts:
                run["seven_seconds"] = round(solve_seven(args.dakon, variant, args.seven_budget), 1)
            os.makedirs(OUT, exist_ok=True)
            with open(times_file, "w") as out:
                json.dump(times, out, indent=1, sort_keys=True)
                out.write("\n")
    default = records(os.path.join(ROOT, "atlas", "atlas.jsonl"))
    variants = {v: records(os.path.join(OUT, v, "atlas.jsonl")) for v in VARIANTS if os.path.exists(os.path.join(OUT, v, "atlas.jsonl"))}
    claims = {v: records(os.path.join(OUT, v, "claim.jsonl")) for v in variants if os.path.exists(os.path.join(OUT, v, "claim.jsonl"))}
    sevens = {v: json.load(open(os.path.join(OUT, v, "seven.json"))) for v in variants if os.path.exists(os.path.join(OUT, v, "seven.json"))}
    command = "python3 scripts/variant_atlas.py" + "".join(
        f" --{flag} {value}" for flag, value in
        [("budget", args.budget), ("threads", args.threads), ("opening-budget", args.opening_budget),
         ("claim-budget", args.claim_budget), ("seven-budget", args.seven_budget)])
    with open(os.path.join(OUT, "compare.svg"), "w") as out:
        out.write(picture(default, variants))
    with open(os.path.join(OUT, "README.md"), "w") as out:
        out.write(report(default, variants, claims, sevens, times, command))


if __name__ == "__main__":
    main()
