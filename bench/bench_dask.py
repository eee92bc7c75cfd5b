#!/usr/bin/env python3
"""``renju check --dask`` against one core, on this machine, and what it projects to.

Starts a Dask scheduler and one-thread workers here, on 127.0.0.1 only::

    dask scheduler --host 127.0.0.1 --port 0 --scheduler-file F
    dask worker --scheduler-file F --nworkers 2 --nthreads 1

then runs, each in a child process with its output to a file, ``--runs`` times each (the best
run is kept: the machine may be shared):

- one core: ``renju check FILE -f jsonl -o OUT``;
- the cluster: the same with ``--dask F``, its output compared with one core's byte for byte;
- the cluster on one tiny file, for the client's fixed cost (start-up, Dask's import, the
  connection).

For each it gives the wall time and the ``renju`` process's own CPU time (``os.wait4``), and
for the cluster the scheduler's CPU time (``/proc``); from them, per unit: the client's CPU,
the scheduler's, and a worker's judging time, and how many workers one client and one
scheduler could keep busy.  ``--project 32,256`` projects the wall time of the file on that
many workers::

    python bench/gen_games.py --games 100000 --seed 1 --jobs 2 -o /tmp/games100k.txt
    python bench/bench_dask.py /tmp/games100k.txt
    python bench/bench_dask.py /tmp/renjunet-100mb.rif --runs 3 --json out.json
"""

from __future__ import annotations

import argparse
import filecmp
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

PYTHON = sys.executable
TICKS = os.sysconf("SC_CLK_TCK")


def _renju() -> list[str]:
    """The ``renju`` command of this interpreter's environment."""
    script = Path(PYTHON).with_name("renju")
    return [str(script)] if script.exists() else [PYTHON, "-m", "renju_cli"]


@dataclass
class Run:
    wall: float  # seconds
    cpu: float  # the renju process's own CPU seconds (user + system)
    scheduler_cpu: float = 0.0  # the scheduler's CPU seconds meanwhile
    workers_cpu: float = 0.0  # the workers' CPU seconds meanwhile, all together


def run_child(argv: list[str], cluster: Cluster | None = None) -> Run:
    """Run ``argv`` (its output to files it names): wall time, its own CPU time (``wait4``),
    and the CPU time the scheduler and the workers of ``cluster`` spent meanwhile."""
    scheduler = cluster.scheduler.pid if cluster is not None else None
    workers = cluster.workers_cpu() if cluster is not None else 0.0
    before = _cpu_of(scheduler)
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    code = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    if code not in (0, 1):
        sys.exit(f"{' '.join(argv)} failed ({code}):\n{err}")
    run = Run(wall, usage.ru_utime + usage.ru_stime, _cpu_of(scheduler) - before)
    if cluster is not None:
        run.workers_cpu = cluster.workers_cpu() - workers
    return run


def _cpu_of(pid: int | None) -> float:
    """CPU seconds (user + system) of the process ``pid`` so far, from ``/proc``."""
    if pid is None:
        return 0.0
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


class Cluster:
    """A scheduler and workers started here on 127.0.0.1, stopped at the end."""

    def __init__(self, workers: int, where: Path) -> None:
        self.file = where / "scheduler.json"
        dask = [PYTHON, "-m", "dask"]
        common = ["--no-dashboard", "--scheduler-file", str(self.file)]
        self.log = open(where / "cluster.log", "wb")  # noqa: SIM115 - closed in stop
        self.scheduler = self._start(
            [*dask, "scheduler", "--host", "127.0.0.1", "--port", "0", *common]
        )
        self._wait(self.file.exists)
        worker = [*dask, "worker", "--nworkers", str(workers), "--nthreads", "1"]
        local = ["--host", "127.0.0.1", "--local-directory", str(where)]
        self.workers = self._start([*worker, *local, *common])
        import distributed

        self.client = distributed.Client(scheduler_file=str(self.file), timeout=120)  # type: ignore[no-untyped-call]
        self.client.wait_for_workers(workers, timeout=120)
        self.client.run(_process_cpu)  # (the workers import what they run first)
        before, t0 = _cpu_of(self.scheduler.pid), time.perf_counter()
        time.sleep(5)
        #: the scheduler's CPU seconds a second when idle (heartbeats, periodic callbacks)
        self.idle = (_cpu_of(self.scheduler.pid) - before) / (time.perf_counter() - t0)

    def workers_peak_rss(self) -> float:
        """The largest peak resident memory of a worker process, in MiB."""
        return float(max(self.client.run(_peak_rss).values()))

    def workers_cpu(self) -> float:
        """The CPU seconds of the worker processes so far, all together."""
        return float(sum(self.client.run(_process_cpu).values()))

    def _start(self, argv: list[str]) -> subprocess.Popen[bytes]:
        return subprocess.Popen(argv, stdout=self.log, stderr=self.log, start_new_session=True)

    @staticmethod
    def _wait(ready: object) -> None:
        deadline = time.monotonic() + 120
        while not ready():  # type: ignore[operator]
            if time.monotonic() > deadline:
                sys.exit("the Dask scheduler did not start")
            time.sleep(0.1)

    def stop(self) -> None:
        self.client.close()  # type: ignore[no-untyped-call]
        for proc in (self.workers, self.scheduler):
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        self.log.close()


def _peak_rss() -> float:
    """This process's peak resident memory in MiB (run on each worker)."""
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _process_cpu() -> float:
    """This process's CPU seconds so far (run on each worker)."""
    times = os.times()
    return times.user + times.system


def best(runs: list[Run]) -> Run:
    """The run of least wall time (the machine is shared: others' load only slows a run)."""
    return min(runs, key=lambda r: r.wall)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("input", type=Path, help="the file to check (a generated one)")
    ap.add_argument("--workers", type=int, default=2, help="one-thread workers (default 2)")
    ap.add_argument("--runs", type=int, default=3, help="runs of each, the best kept (3)")
    ap.add_argument("--project", default="32,256", help="workers to project to (32,256)")
    ap.add_argument(
        "--scale", type=int, default=100, help="project to an input this many times as big too"
    )
    ap.add_argument("--json", type=Path, help="also write the figures as JSON here")
    args = ap.parse_args(argv)

    from renju_cli import cluster

    size = args.input.stat().st_size
    units = max(1, -(-size // cluster.unit_bytes(size, args.workers)))
    renju = _renju()
    with tempfile.TemporaryDirectory(prefix="bench-dask-") as tmp:
        where = Path(tmp)
        tiny = where / "tiny.txt"
        tiny.write_text("h8 h9 i10\n")
        one_out, dask_out = where / "one.jsonl", where / "dask.jsonl"
        cl = Cluster(args.workers, where)
        try:
            remote = ["--dask", str(cl.file)]
            fixed = [
                run_child([*renju, "check", str(tiny), "-o", os.devnull, *remote], cl)
                for _ in range(args.runs)
            ]
            one, runs = [], []
            check = [*renju, "check", str(args.input), "-f", "jsonl"]
            for n in range(args.runs):  # (in turn: both see the machine's load alike)
                one.append(run_child([*check, "-o", str(one_out)]))
                runs.append(run_child([*check, "-o", str(dask_out), *remote], cl))
                if not filecmp.cmp(one_out, dask_out, shallow=False):
                    sys.exit("the output of --dask differs from that of one core")
                print(
                    f"run {n + 1}: {one[-1].wall:.1f} s, --dask {runs[-1].wall:.1f} s",
                    file=sys.stderr,
                )
            idle, rss = cl.idle, cl.workers_peak_rss()
        finally:
            cl.stop()
    figures = _figures(args, size, units, (best(one), best(runs), min(fixed, key=_cpu)), idle)
    figures["worker_peak_rss_mib"] = rss
    _print(figures)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return 0


def _cpu(run: Run) -> float:
    return run.cpu


def _figures(
    args: argparse.Namespace,
    size: int,
    units: int,
    runs: tuple[Run, Run, Run],
    idle: float,
) -> dict[str, Any]:
    """The figures measured, per unit, and projected.

    The client's CPU grows with the bytes it cuts and the reports it writes (measured per
    byte, its fixed cost aside), the scheduler's with the units (measured per unit, its idle
    rate aside); a worker judges a unit in its share of one core's CPU time.  On ``n``
    workers, for an input ``scale`` times as big, the units are ``cluster.unit_bytes`` long,
    at most ``min(n, units)`` of them are judged at once, and the run ends one unit after the
    last is handed out: wall = fixed cost + max(judging, the client's CPU, the scheduler's)
    + one unit, against one core's CPU time (a core of its own)."""
    from renju_cli import cluster

    one, dask, fixed = runs
    work = one.cpu  # the CPU time of judging the whole file, as one core spends it
    client = max(0.0, dask.cpu - fixed.cpu)
    scheduler = max(
        0.0, (dask.scheduler_cpu - idle * dask.wall) - (fixed.scheduler_cpu - idle * fixed.wall)
    )
    per_unit = {
        "worker_s": work / units,
        "client_s": client / units,
        "scheduler_s": scheduler / units,
    }
    projection = []
    for n in (int(x) for x in args.project.split(",") if x):
        for scale in (1, args.scale):
            unit_n = cluster.unit_bytes(size * scale, n)
            units_n = max(1, -(-size * scale // unit_n))
            judging = work * scale / min(n, units_n)
            feeding = max(client * scale, per_unit["scheduler_s"] * units_n)
            wall = fixed.wall + max(judging, feeding) + work * scale / units_n
            projection.append(
                {
                    "workers": n,
                    "bytes": size * scale,
                    "unit_bytes": unit_n,
                    "units": units_n,
                    "wall_s": wall,
                    "speedup": work * scale / wall,
                }
            )
    return {
        "input": str(args.input),
        "bytes": size,
        "workers": args.workers,
        "runs": args.runs,
        "unit_bytes": cluster.unit_bytes(size, args.workers),
        "units": units,
        "one_core": asdict(one),
        "dask": asdict(dask),
        "dask_fixed": asdict(fixed),
        "scheduler_idle_cpu_per_s": idle,
        "speedup": one.wall / dask.wall,
        "client_cpu_share": dask.cpu / one.cpu,
        "per_unit": per_unit,
        "client_mb_per_s": size / 1e6 / max(client, 1e-9),
        "workers_one_client_feeds": per_unit["worker_s"] / max(per_unit["client_s"], 1e-9),
        "workers_one_scheduler_feeds": per_unit["worker_s"] / max(per_unit["scheduler_s"], 1e-9),
        "projection": projection,
    }


def _print(f: dict[str, Any]) -> None:
    one, dask, fixed, per = f["one_core"], f["dask"], f["dask_fixed"], f["per_unit"]
    print(f"input: {f['input']} ({f['bytes']} bytes), {f['units']} units of {f['unit_bytes']}")
    print(f"best of {f['runs']} runs, {f['workers']} one-thread workers")
    print("| run | wall | the renju process's CPU | scheduler CPU | workers' CPU |")
    print("|---|---|---|---|---|")
    print(f"| one core | {one['wall']:.2f} s | {one['cpu']:.2f} s | — | — |")
    print(
        f"| --dask | {dask['wall']:.2f} s ({f['speedup']:.2f}x) | {dask['cpu']:.2f} s "
        f"({100 * f['client_cpu_share']:.1f} %) | {dask['scheduler_cpu']:.2f} s | "
        f"{dask['workers_cpu']:.2f} s |"
    )
    print(
        f"| --dask, one tiny record | {fixed['wall']:.2f} s | {fixed['cpu']:.2f} s | "
        f"{fixed['scheduler_cpu']:.2f} s | {fixed['workers_cpu']:.2f} s |"
    )
    print(
        f"per unit: worker {1000 * per['worker_s']:.0f} ms, client {1000 * per['client_s']:.1f} "
        f"ms, scheduler {1000 * per['scheduler_s']:.1f} ms; one client feeds "
        f"{f['workers_one_client_feeds']:.0f} workers, one scheduler "
        f"{f['workers_one_scheduler_feeds']:.0f}"
    )
    print(f"scheduler idle: {f['scheduler_idle_cpu_per_s'] * 1000:.1f} ms of CPU a second")
    print(f"a worker's peak memory: {f['worker_peak_rss_mib']:.0f} MiB")
    for p in f["projection"]:
        print(
            f"projected: {p['workers']} workers, {p['bytes'] / 1e6:.0f} MB in {p['units']} units "
            f"of {p['unit_bytes']} bytes: {p['wall_s']:.1f} s ({p['speedup']:.1f}x one core)"
        )


if __name__ == "__main__":
    raise SystemExit(main())
