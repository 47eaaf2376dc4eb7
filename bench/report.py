#!/usr/bin/env python3
"""bench/report.py — turns collide2d_bench's Google Benchmark JSON into the comparison table.

Reads the raw JSON (default build/bench/raw.json), takes each benchmark's median over its
repetitions (CPU time; a benchmark run once is taken as is), pairs our benchmark with each peer's
on the same inputs ("query/case/library"; libraries named ours* are ours), prints a table of
benchmark, ours ns/op, peer, peer ns/op, the ratio peer/ours (above 1: we are faster) and the
disagreement counts, then each engine's ms per physics step beside its stability figures, and
writes bench/results/latest.json and bench/results/<cpu-model>.json: a list of {"name",
"ours_ns", "peer", "peer_ns", "ratio", ...} (the step rows add ours_/peer_ settle, drift,
last_second_motion, awake_10s, escaped_10s, bodies and awake_window_end). Standard library only.
"""

import json
import os
import re
import subprocess
import sys

QUERY_ORDER = ["collide", "overlap", "penetration", "distance_cold", "distance_warm", "raycast", "shape_cast",
               "time_of_impact", "broad_phase", "world_update", "step"]
# The physics step benchmarks' counters (bench_dynamics.cpp): the stability figures of one 600-step
# run per engine, the dynamic bodies, and those awake at the end of the timed window.
STEP_COUNTERS = ["settle", "drift", "last_second_motion", "awake_10s", "escaped_10s", "bodies", "awake_window_end"]
NANOSECONDS_PER_UNIT = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
# Google Benchmark appends the run options to the name; they are not part of ours.
RUN_OPTION_SUFFIX = re.compile(r"(/(iterations|repeats|min_time|min_warmup_time|threads|real_time|manual_time)(:[^/]*)?)+$")


def cpu_model():
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown CPU"


def library_version(repository):
    """The commit the library was built from, and whether its sources (include/, src/) differed."""
    try:
        def git(*arguments):
            return subprocess.run(["git", "-C", repository, *arguments], capture_output=True, text=True, check=True).stdout.strip()
        return git("rev-parse", "--short", "HEAD"), bool(git("status", "--porcelain", "--", "include", "src"))
    except (OSError, subprocess.CalledProcessError):
        return None, None


def slug(text):
    text = re.sub(r"\((r|tm|c)\)", "", text.lower())
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-")


def read_medians(raw):
    """Benchmark name (without run options) -> its median over the repetitions, or its only run,
    in the order the benchmarks were registered (repetitions may have run interleaved)."""
    medians, first_runs, repetition_times = {}, {}, {}
    for entry in raw["benchmarks"]:
        name = RUN_OPTION_SUFFIX.sub("", entry.get("run_name", entry["name"]))
        if entry.get("run_type") == "aggregate":
            if entry.get("aggregate_name") == "median":
                medians[name] = entry
        else:
            first_runs.setdefault(name, entry)
            repetition_times.setdefault(name, []).append(nanoseconds(entry))
    registered = sorted(first_runs, key=lambda name: first_runs[name].get("family_index", 0))
    runs = {}
    for name in registered:
        run = dict(medians.get(name, first_runs[name]))
        run["repetition_range_ns"] = [round(min(repetition_times[name]), 2), round(max(repetition_times[name]), 2)]
        runs[name] = run
    return runs


def nanoseconds(entry):
    return entry["cpu_time"] * NANOSECONDS_PER_UNIT[entry.get("time_unit", "ns")]


def build_rows(runs):
    groups = {}  # "query/case" -> {library: entry}, in the order the benchmarks were registered
    for name, entry in runs.items():
        query_and_case, _, library = name.rpartition("/")
        groups.setdefault(query_and_case, {})[library] = entry
    # The table goes query by query (each query's cases in the order they were registered).
    first_seen = {group: position for position, group in enumerate(groups)}
    def query_rank(group):
        query = group.split("/", 1)[0]
        return (QUERY_ORDER.index(query) if query in QUERY_ORDER else len(QUERY_ORDER), first_seen[group])
    rows = []
    for group in sorted(groups, key=query_rank):
        libraries = groups[group]
        ours = {library: entry for library, entry in libraries.items() if library.startswith("ours")}
        peers = {library: entry for library, entry in libraries.items() if not library.startswith("ours")}
        if not ours:
            continue
        primary = "ours" if "ours" in ours else next(iter(ours))
        fastest_peer = min(peers, key=lambda library: nanoseconds(peers[library])) if peers else None
        for ours_library, ours_entry in ours.items():
            if not peers:
                rows.append(make_row(group, ours_library, ours_entry, None, None))
            elif ours_library == primary:
                for peer_library, peer_entry in peers.items():
                    rows.append(make_row(group, ours_library, ours_entry, peer_library, peer_entry))
            else:
                rows.append(make_row(group, ours_library, ours_entry, fastest_peer, peers[fastest_peer]))
    return rows


def make_row(group, ours_library, ours_entry, peer_library, peer_entry):
    ours_ns = nanoseconds(ours_entry)
    row = {
        "name": group if ours_library == "ours" else f"{group}/{ours_library}",
        "ours_ns": round(ours_ns, 2),
        "peer": peer_library,
        "peer_ns": round(nanoseconds(peer_entry), 2) if peer_entry else None,
        "ratio": round(nanoseconds(peer_entry) / ours_ns, 3) if peer_entry else None,
        "ours_library": ours_library,
        "ours_repetition_range_ns": ours_entry["repetition_range_ns"],
    }
    if peer_entry:
        row["peer_repetition_range_ns"] = peer_entry["repetition_range_ns"]
    for key in ("overlap_fraction", "hit_fraction"):
        if key in ours_entry:
            row[key] = ours_entry[key]
    if peer_entry:
        for counter in ("disagree", "disagree_far", "normal_mismatch", "distance_mismatch", "fraction_mismatch",
                        "mean_time_difference", "box2d_failed", "chipmunk_warnings", "pair_count_error"):
            if counter in peer_entry:
                row[f"peer_{counter}"] = peer_entry[counter]
    if "pair_count_error" in ours_entry:
        row["ours_pair_count_error"] = ours_entry["pair_count_error"]
        row["pairs_checked"] = ours_entry.get("pairs_checked")
    for counter in STEP_COUNTERS:
        if counter in ours_entry:
            row[f"ours_{counter}"] = ours_entry[counter]
        if peer_entry and counter in peer_entry:
            row[f"peer_{counter}"] = peer_entry[counter]
    return row


def format_time(value):
    if value is None:
        return "-"
    return f"{value:,.0f}" if value >= 1000 else f"{value:.1f}"


def disagreement_text(row):
    if "peer_disagree" in row:
        return f"{row['peer_disagree']:.0f} ({row['peer_disagree_far']:.0f} far)"
    if "peer_pair_count_error" in row:
        return f"pairs off by {row['peer_pair_count_error']:.0f}/{row['ours_pair_count_error']:.0f}"
    if "ours_pair_count_error" in row:
        return f"pairs off by {row['ours_pair_count_error']:.0f}"
    return ""


def print_table(rows, model):
    print(f"\ncollide2d against Box2D 2.4.1 and Chipmunk 7 on {model} (median CPU time; ratio = peer / ours, above 1: ours is faster)")
    print("disagree: cases where the peer's overlap or hit answer differs from ours (far: farther than the touching band from touching)")
    header = ("benchmark", "ours ns/op", "peer", "peer ns/op", "peer/ours", "disagree", "ours overlap")
    widths = (52, 14, 22, 14, 9, 22, 12)
    line = "  ".join(f"{text:<{width}}" if index in (0, 2, 5) else f"{text:>{width}}" for index, (text, width) in enumerate(zip(header, widths)))
    print(line)
    print("-" * len(line))
    for row in rows:
        fraction = row.get("overlap_fraction", row.get("hit_fraction"))
        cells = (row["name"], format_time(row["ours_ns"]), row["peer"] or "-", format_time(row["peer_ns"]),
                 f"{row['ratio']:.2f}" if row["ratio"] is not None else "-", disagreement_text(row),
                 f"{100 * fraction:.1f}%" if fraction is not None else "")
        print("  ".join(f"{text:<{width}}" if index in (0, 2, 5) else f"{text:>{width}}" for index, (text, width) in enumerate(zip(cells, widths))))


def print_stability(rows):
    """The physics step rows again, one line per engine: ms per step beside the stability figures."""
    step_rows = [row for row in rows if "ours_settle" in row]
    if not step_rows:
        return
    print("\nphysics step: ms per timed step, and stability from one 10 s run (600 steps) per engine")
    print("settle: how far the tracked body (top box; highest rain shape) sank in the first second; "
          "drift: how far it moved from 1 s to 10 s; last 1 s: from 9 s to 10 s; awake, escaped: dynamic bodies after 10 s")
    header = ("scene", "engine", "ms/step", "settle", "drift", "last 1 s", "awake", "escaped", "bodies")
    widths = (24, 10, 10, 10, 10, 10, 8, 8, 8)
    line = "  ".join(f"{text:<{width}}" if index < 2 else f"{text:>{width}}" for index, (text, width) in enumerate(zip(header, widths)))
    print(line)
    print("-" * len(line))
    lines = []
    for row in step_rows:
        engines = [("ours", row["ours_ns"], "ours_")]
        if row["peer"]:
            engines.append((row["peer"], row["peer_ns"], "peer_"))
        for engine, time_ns, prefix in engines:
            cells = (row["name"], engine, f"{time_ns / 1e6:.3f}", f"{row[prefix + 'settle']:.4f}", f"{row[prefix + 'drift']:.4f}",
                     f"{row[prefix + 'last_second_motion']:.4f}", f"{row[prefix + 'awake_10s']:.0f}", f"{row[prefix + 'escaped_10s']:.0f}", f"{row[prefix + 'bodies']:.0f}")
            if cells not in lines:
                lines.append(cells)
    for cells in lines:
        print("  ".join(f"{text:<{width}}" if index < 2 else f"{text:>{width}}" for index, (text, width) in enumerate(zip(cells, widths))))


def main():
    raw_path = sys.argv[1] if len(sys.argv) > 1 else "build/bench/raw.json"
    results_directory = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")
    with open(raw_path, encoding="utf-8") as raw_file:
        raw = json.load(raw_file)
    model = cpu_model()
    rows = build_rows(read_medians(raw))
    context = raw.get("context", {})
    commit, sources_modified = library_version(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    for row in rows:
        row["cpu_model"] = model
        row["date"] = context.get("date")
        row["load_average_at_start"] = context.get("load_avg")
        row["collide2d_commit"] = commit
        row["collide2d_sources_modified"] = sources_modified
    print_table(rows, model)
    print_stability(rows)
    if commit:
        print(f"collide2d at commit {commit}{' with uncommitted changes in include/ or src/' if sources_modified else ''}")
    os.makedirs(results_directory, exist_ok=True)
    for file_name in ("latest.json", f"{slug(model)}.json"):
        with open(os.path.join(results_directory, file_name), "w", encoding="utf-8") as output:
            json.dump(rows, output, indent=1)
            output.write("\n")
    print(f"\nwrote {os.path.join('bench', 'results', 'latest.json')} and {os.path.join('bench', 'results', slug(model) + '.json')}")


if __name__ == "__main__":
    main()
