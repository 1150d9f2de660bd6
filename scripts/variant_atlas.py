#!/usr/bin/env python3
"""Builds the variant atlas: `dakon verify` over 1..9 holes x 1..14 seeds under each single
Dakon option and the traditional combination, with certificates, then the picture comparing
them with the default atlas (atlas/atlas.jsonl) and the report atlas/variants/README.md.

Usage (from the repository root, after `cargo build --release`):

    python3 scripts/variant_atlas.py                 # build every variant, then the report
    python3 scripts/variant_atlas.py --report-only   # redraw the picture and report only
    python3 scripts/variant_atlas.py --variants no-mikul --budget 60

Each variant's verify run writes atlas/variants/<variant>/atlas.{md,jsonl,svg} and its
certificates under atlas/variants/<variant>/certificates/; the wall time of each run is kept in
atlas/variants/build-times.json for the report.
"""

import argparse
import json
import os
import platform
import subprocess
import sys
import time

VARIANTS = ["nembak-lander", "no-mikul", "skip-origin", "traditional"]
HOLES = range(1, 10)
SEEDS = range(1, 15)
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "atlas", "variants")


def build(dakon, variant, budget, threads, rules=None, extra=()):
    """Runs one variant's verify into atlas/variants/<variant>/ (its rules `dakon:<variant>`
    unless `rules` names them, `extra` more options); returns its wall time in seconds."""
    # Relative to the repository (the run's directory), so the records name their files
    # wherever the repository is cloned.
    directory = os.path.relpath(os.path.join(OUT, variant), ROOT)
    os.makedirs(os.path.join(ROOT, directory), exist_ok=True)
    command = [
        dakon, "verify", "--rules", rules or f"dakon:{variant}", "--holes", "1..9", "--seeds", "1..14",
        "--budget", str(budget), "--threads", str(threads), "--no-tables",
        "--out", os.path.join(directory, "atlas.md"), "--svg", os.path.join(directory, "atlas.svg"),
        "--certificates", os.path.join(directory, "certificates"), *extra,
    ]
    print("+", " ".join(command), file=sys.stderr, flush=True)
    started = time.monotonic()
    subprocess.run(command, check=True, cwd=ROOT)
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
    """win, draw, loss, or None while the bounds straddle more than one."""
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


def picture(default, variants):
    """Small multiples: one grid per variant, each cell the variant's value, coloured by its
    difference from the default; a thick outline where the first player's verdict changes."""
    cell_w, cell_h, gap, left, top = 34, 22, 40, 40, 70
    panel_w, panel_h = cell_w * len(SEEDS), cell_h * len(HOLES)
    width = left + 2 * panel_w + gap + 20
    height = top + 2 * (panel_h + 50) + 40
    # Most differences are a few seeds and a few are hundreds: colour saturates at 40 seeds so
    # that the small ones still show.
    scale = 40
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           '<text x="20" y="26" font-size="18" font-weight="bold">Dakon\'s variants: the first player\'s value on each board, against the default rules</text>',
           f'<text x="20" y="48" font-size="12">Cell: the variant\'s value (first player − second). Colour: variant − default (blue: better for the first player, red: worse; full colour from ±{scale}). Thick outline: the winner changes.</text>']
    for i, (name, table) in enumerate(variants.items()):
        x0 = left + (i % 2) * (panel_w + gap)
        y0 = top + (i // 2) * (panel_h + 50) + 20
        out.append(f'<text x="{x0}" y="{y0 - 8}" font-size="14" font-weight="bold">dakon:{name}</text>')
        for s in SEEDS:
            out.append(f'<text x="{x0 + (s - 1) * cell_w + cell_w / 2}" y="{y0 + panel_h + 14}" font-size="9" text-anchor="middle">{s}</text>')
        for n in HOLES:
            y = y0 + (n - 1) * cell_h
            out.append(f'<text x="{x0 - 6}" y="{y + cell_h / 2 + 4}" font-size="9" text-anchor="end">{n}</text>')
            for s in SEEDS:
                x = x0 + (s - 1) * cell_w
                record, base = table.get((n, s)), default.get((n, s))
                difference = record["value"] - base["value"] if record and base and record["exact"] and base["exact"] else None
                changed = record and base and verdict(record) != verdict(base)
                stroke = 'stroke="black" stroke-width="2.5"' if changed else 'stroke="#999" stroke-width="0.5"'
                out.append(f'<rect x="{x}" y="{y}" width="{cell_w}" height="{cell_h}" fill="{colour(difference, scale)}" {stroke}/>')
                label = shown(record) if record else "?"
                size = 9 if len(label) <= 4 else 6
                out.append(f'<text x="{x + cell_w / 2}" y="{y + cell_h / 2 + 3}" font-size="{size}" text-anchor="middle">{label}</text>')
        out.append(f'<text x="{x0 + panel_w / 2}" y="{y0 + panel_h + 28}" font-size="10" text-anchor="middle">seeds per hole (rows: holes per row)</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def report(default, variants, times, budget, threads):
    lines = ["# Dakon's variants: does the first player's win survive every reading of the rules?", ""]
    lines += ["Each variant (`docs/rules.md`, \"Dakon's variants\") solved over 1..9 holes × 1..14 seeds per hole",
              "with the first player to move, as the default atlas (`atlas/atlas.md`) is, every board with a",
              "certificate that `dakon check` confirms. Values are final store differences, first player minus",
              "second; `lower..upper` where only bounds were proven.", ""]
    lines += ["![values per variant, coloured by the difference from the default](compare.svg)", ""]
    lines += ["## Build", "",
              "One command builds the whole set (release binary; it runs each variant's `dakon verify` in turn and",
              "then writes `compare.svg` and this page):", "",
              "```", f"python3 scripts/variant_atlas.py --budget {budget} --threads {threads}", "```", "",
              "| variant | wall time (s) | boards exact | boards with bounds only |", "|---|---:|---:|---:|"]
    total = 0.0
    for name, table in variants.items():
        seconds = times.get(name)
        total += seconds or 0.0
        exact = sum(1 for r in table.values() if r["exact"])
        lines.append(f"| `dakon:{name}` | {seconds:.0f} | {exact} | {len(table) - exact} |" if seconds is not None
                     else f"| `dakon:{name}` | not recorded | {exact} | {len(table) - exact} |")
    lines += ["", f"Total: {total:.0f} s on {platform.machine()} ({os.cpu_count()} cores), under the load other engineers' builds",
              "put on the machine when it was run (see the commit message for `uptime`): a measurement under load, not",
              "a verdict on speed.", ""]
    lines += ["## Which boards change winner", "",
              "A board changes winner when the first player's result (win, draw or loss) differs from the default's.", ""]
    for name, table in variants.items():
        changed = []
        for n in HOLES:
            for s in SEEDS:
                record, base = table.get((n, s)), default.get((n, s))
                if record and base and verdict(record) != verdict(base):
                    changed.append(f"{n}×{s} ({shown(base)} → {shown(record)})")
        same = sum(1 for b in table if table[b]["exact"] and default[b]["exact"] and table[b]["value"] == default[b]["value"])
        lines.append(f"- `dakon:{name}`: {len(changed)} of {len(table)} boards change winner; {same} keep exactly the default's value." +
                     (" " + ", ".join(changed) + "." if changed else ""))
    lines += ["", "## The traditional claim: the first player wins on 5 to 9 holes with as many seeds as holes", "",
              "| holes × seeds | dakon | " + " | ".join(f"dakon:{n}" for n in variants) + " |",
              "|---|---:|" + "---:|" * len(variants)]
    fails = {name: [] for name in variants}
    missing = {name: [] for name in variants}
    for n in range(5, 10):
        row = [f"{n}×{n}", shown(default[(n, n)])]
        for name, table in variants.items():
            record = table.get((n, n))
            row.append(shown(record) if record else "not built")
            if record is None or (record["lower"] <= 0 < record["upper"]):
                missing[name].append(f"{n}×{n}")
            elif record["upper"] <= 0:
                fails[name].append(f"{n}×{n}")
        lines.append("| " + " | ".join(row) + " |")
    lines.append("")
    for name in variants:
        if fails[name]:
            lines.append(f"- `dakon:{name}`: the claim fails on {', '.join(fails[name])}.")
        elif missing[name]:
            lines.append(f"- `dakon:{name}`: the claim holds where decided; {', '.join(missing[name])} not decided.")
        else:
            lines.append(f"- `dakon:{name}`: the claim holds on every board 5×5 to 9×9.")
    seven = [f"`dakon:{name}` {shown(t[(7, 7)])}" for name, t in variants.items()]
    lines += ["", "7 × 7 under each variant: " + ", ".join(seven) + f" (default {shown(default[(7, 7)])}).", ""]
    lines += ["## Values of every board", ""]
    for name, table in variants.items():
        lines += [f"### `dakon:{name}`", "", "| holes \\ seeds | " + " | ".join(str(s) for s in SEEDS) + " |",
                  "|---:|" + "---:|" * len(SEEDS)]
        for n in HOLES:
            lines.append(f"| **{n}** | " + " | ".join(shown(table[(n, s)]) if (n, s) in table else "?" for s in SEEDS) + " |")
        lines += ["", f"Every board with its opening, proof and certificate: [{name}/atlas.md]({name}/atlas.md).", ""]
    lines += ["Every certificate is checked again by the test `tests/variant_atlas.rs` (`dakon check` on all of them).", ""]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dakon", default=os.path.join(ROOT, "target", "release", "dakon"))
    parser.add_argument("--variants", nargs="*", default=VARIANTS, choices=VARIANTS)
    parser.add_argument("--budget", type=int, default=600, help="seconds of search per board")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--report-only", action="store_true")
    args = parser.parse_args()
    times_file = os.path.join(OUT, "build-times.json")
    times = json.load(open(times_file)) if os.path.exists(times_file) else {}
    if not args.report_only:
        for variant in args.variants:
            times[variant] = build(args.dakon, variant, args.budget, args.threads)
            os.makedirs(OUT, exist_ok=True)
            with open(times_file, "w") as out:
                json.dump(times, out, indent=1, sort_keys=True)
    default = records(os.path.join(ROOT, "atlas", "atlas.jsonl"))
    variants = {v: records(os.path.join(OUT, v, "atlas.jsonl")) for v in VARIANTS if os.path.exists(os.path.join(OUT, v, "atlas.jsonl"))}
    with open(os.path.join(OUT, "compare.svg"), "w") as out:
        out.write(picture(default, variants))
    with open(os.path.join(OUT, "README.md"), "w") as out:
        out.write(report(default, variants, times, args.budget, args.threads))


if __name__ == "__main__":
    main()
