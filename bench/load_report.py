"""The figures of the load benchmark (``bench/load.py``): what one worker saw (:class:`Stats`),
the workers' reports added up, and the table or JSON object printed at the end."""

from __future__ import annotations

import argparse
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from timing import percentile

EARLY_MS = 50.0
"""A computer's move that comes more than this many milliseconds before its pause is over is
counted as early (``early``): the server did not keep the pace."""

MOVES = ("action", "best_layoffs", "next_hand")
"""The person's messages that change the table (counted as acknowledged moves)."""


# ------------------------------------------------------------------------------- measurements


@dataclass
class Stats:
    """What one worker saw; samples and rates count only inside the measured window."""

    start: float
    end: float
    latencies: dict[str, list[float]] = field(default_factory=dict)
    late: list[float] = field(default_factory=list)
    moves: int = 0
    views: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    error_samples: list[str] = field(default_factory=list)
    stale: int = 0
    dropped: int = 0
    close_codes: Counter[str] = field(default_factory=Counter)
    messages: Counter[str] = field(default_factory=Counter)
    tables_created: int = 0
    create_ms: list[float] = field(default_factory=list)
    matches_over: int = 0
    reconnects: int = 0
    heavy_hints: int = 0
    """Hints answered to the ``--hinters`` (not among the figures of the other tables)."""

    def inside(self, now: float) -> bool:
        return self.start <= now <= self.end

    def answered(self, kind: str, sent: float, now: float) -> None:
        if self.inside(now):
            self.latencies.setdefault(kind, []).append(1000 * (now - sent))
            if kind in MOVES:
                self.moves += 1

    def view(self, now: float) -> None:
        if self.inside(now):
            self.views += 1

    def lateness(self, ms: float, now: float) -> None:
        if self.inside(now):
            self.late.append(ms)

    def error(self, code: str, detail: str) -> None:
        self.errors[code] += 1
        if len(self.error_samples) < 20:
            self.error_samples.append(f"{code}: {detail}"[:300])

    def drop(self, code: int | None, detail: str) -> None:
        self.dropped += 1
        self.close_codes[str(code)] += 1
        if len(self.error_samples) < 20:
            self.error_samples.append(f"dropped ({code}): {detail}"[:300])

    def to_dict(self) -> dict[str, Any]:
        """Plain data, to send to the parent process."""
        return {
            "latencies": self.latencies,
            "late": self.late,
            "moves": self.moves,
            "views": self.views,
            "errors": dict(self.errors),
            "error_samples": self.error_samples,
            "stale": self.stale,
            "dropped": self.dropped,
            "close_codes": dict(self.close_codes),
            "messages": dict(self.messages),
            "tables_created": self.tables_created,
            "create_ms": self.create_ms,
            "matches_over": self.matches_over,
            "reconnects": self.reconnects,
            "heavy_hints": self.heavy_hints,
        }


# ---------------------------------------------------------------------------------- the report


def _ms(values: list[float], q: float) -> float | None:
    return round(percentile(values, q), 1) if values else None


def merge(reports: list[dict[str, Any]]) -> dict[str, Any]:
    """The workers' reports added up."""
    total: dict[str, Any] = {
        "latencies": {},
        "late": [],
        "create_ms": [],
        "errors": Counter(),
        "close_codes": Counter(),
        "messages": Counter(),
        "error_samples": [],
    }
    for key in ("moves", "views", "stale", "dropped", "tables_created", "matches_over"):
        total[key] = 0
    total["reconnects"] = 0
    total["heavy_hints"] = 0
    for report in reports:
        for kind, values in report["latencies"].items():
            total["latencies"].setdefault(kind, []).extend(values)
        total["late"] += report["late"]
        total["create_ms"] += report["create_ms"]
        for key in ("errors", "close_codes", "messages"):
            total[key].update(report[key])
        total["error_samples"] += report["error_samples"]
        for key in ("moves", "views", "stale", "dropped", "tables_created", "matches_over"):
            total[key] += report[key]
        total["reconnects"] += report["reconnects"]
        total["heavy_hints"] += report["heavy_hints"]
    return total


def summary(
    args: argparse.Namespace, total: dict[str, Any], server: dict[str, Any]
) -> dict[str, Any]:
    """The figures of the run, as the JSON output names them."""
    every = [v for values in total["latencies"].values() for v in values]
    seconds = float(args.seconds)
    return {
        "tables": args.tables,
        "seconds": seconds,
        "think": args.think,
        "mix": args.mix,
        "clients": args.clients,
        "server_workers": args.workers,
        "delay": args.delay,
        "seed": args.seed,
        "p50_ms": _ms(every, 0.5),
        "p99_ms": _ms(every, 0.99),
        "max_ms": round(max(every), 1) if every else None,
        "answers": len(every),
        "late_p50_ms": _ms(total["late"], 0.5),
        "late_p99_ms": _ms(total["late"], 0.99),
        "late_min_ms": round(min(total["late"]), 1) if total["late"] else None,
        "early": sum(1 for v in total["late"] if v < -EARLY_MS),
        "computer_moves": len(total["late"]),
        "actions": total["moves"],
        "actions_per_s": round(total["moves"] / seconds, 2),
        "views_per_s": round(total["views"] / seconds, 2),
        "errors": sum(total["errors"].values()),
        "error_codes": dict(total["errors"]),
        "stale": total["stale"],
        "dropped": total["dropped"],
        "close_codes": dict(total["close_codes"]),
        "by_kind": {
            kind: {
                "count": len(values),
                "p50_ms": _ms(values, 0.5),
                "p99_ms": _ms(values, 0.99),
                "max_ms": round(max(values), 1),
            }
            for kind, values in sorted(total["latencies"].items())
        },
        "create_p50_ms": _ms(total["create_ms"], 0.5),
        "tables_created": total["tables_created"],
        "matches_over": total["matches_over"],
        "reconnects": total["reconnects"],
        "hinters": args.hinters,
        "heavy_hints_per_s": round(total["heavy_hints"] / seconds, 2),
        "messages": dict(sorted(total["messages"].items())),
        **server,
    }


def _cell(value: Any, digits: int = 1) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def print_table(figures: dict[str, Any], samples: list[str]) -> None:
    columns = [
        ("tables", "tables", 0),
        ("seconds", "seconds", 0),
        ("p50 ms", "p50_ms", 1),
        ("p99 ms", "p99_ms", 1),
        ("max ms", "max_ms", 1),
        ("late p50", "late_p50_ms", 0),
        ("late p99", "late_p99_ms", 0),
        ("actions/s", "actions_per_s", 2),
        ("views/s", "views_per_s", 1),
        ("errors", "errors", 0),
        ("stale", "stale", 0),
        ("dropped", "dropped", 0),
        ("cpu %", "server_cpu_pct", 1),
        ("rss MB", "server_rss_mb", 1),
    ]
    cells = [_cell(figures[key], digits) for _, key, digits in columns]
    widths = [max(len(name), len(cell)) for (name, _, _), cell in zip(columns, cells, strict=True)]
    print("  ".join(name.rjust(w) for (name, _, _), w in zip(columns, widths, strict=True)))
    print("  ".join(cell.rjust(w) for cell, w in zip(cells, widths, strict=True)))
    print(
        f"mix {figures['mix']}, think {figures['think']:g} s, delay {figures['delay']:g} s,"
        f" {figures['clients']}"
        f" client processes, {figures['server_workers']} server processes, seed {figures['seed']}; {figures['answers']} answers,"
        f" {figures['actions']} moves acknowledged, {figures['computer_moves']} computer moves"
        f" timed (late = the interval to the view before minus {figures['delay']:g} s; least"
        f" {_cell(figures['late_min_ms'])} ms, {figures['early']} early by over {EARLY_MS:g} ms)"
    )
    for kind, row in figures["by_kind"].items():
        print(
            f"  {kind:13} {row['count']:6}  p50 {_cell(row['p50_ms'])} ms"
            f"  p99 {_cell(row['p99_ms'])} ms  max {_cell(row['max_ms'])} ms"
        )
    print(
        f"tables created {figures['tables_created']} (POST p50"
        f" {_cell(figures['create_p50_ms'])} ms), matches over {figures['matches_over']},"
        f" reconnections {figures['reconnects']}; server CPU {_cell(figures['server_cpu_s'], 2)}"
        f" s, log errors {_cell(figures['server_log_errors'])}"
    )
    if figures["error_codes"] or figures["close_codes"]:
        print(f"errors by code {figures['error_codes']}, closes {figures['close_codes']}")
    for sample in samples[:10]:
        print(f"  {sample}")
