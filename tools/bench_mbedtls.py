"""tools/bench_mbedtls.py: what the tracers cost on a real program, mbed
TLS's own self-test (examples/mbedtls), for tools/bench: OUTDIR/mbedtls.json.

The app's bench mode ("-- bench" or "-- bench-held", examples/mbedtls/
main.c) prints the PMU instruction count of the self-test and of the
export_flush() that sends what the rings still hold after it. Under
-icount QEMU counts every CPU's instructions in that one counter, so a
CPU's own share is found by difference, in boots that repeat exactly:

  U  untraced self-test
  H  traced, the idle CPUs kept from exporting (bench-held): the traced
     CPU's work (the other CPUs sleep but for their ticks); its flush Hf
     then sends the whole run from CPU 0, the exporter's work alone
  L  traced as users run it, the idle CPUs exporting while the self-test
     runs; Lf sends what is left

  traced CPU insns per call        (H - U) / calls
  exporter insns per call          Hf / calls (all of it sent by one flush)
  exporting CPUs insns per call    (L + Lf - H) / calls (live: what the
                                   idle CPUs spent, lock tries and wakeups
                                   included, and the last flush)

calls is the number of mbedtls_* calls: the function tracer's events in
its boot (the runs are identical until the tracer, and all repeat). Every
suite runs but ecjpake and ecp: those two make 4.5 of the 5.5 million
calls of the whole self-test, and function_graph on all of it took 160 s
of host time here. Every depth is recorded (no trace_max_depth); the
ring is 16 MiB per CPU (trace_buf=16M) so that the held runs lose
nothing; losses are checked.
"""
import json
import os
import re
import subprocess

SUITES = "-x ecjpake ecp"
BASE_ARGS = "panic=poweroff lockup_ms=0"
FILTER = "mbedtls_*"
TRACED = {
    "function": f"trace=function trace_filter={FILTER} trace_buf=16M",
    "function_graph": f"trace=function_graph trace_filter={FILTER} trace_buf=16M",
    "profile": f"trace=profile trace_filter={FILTER} trace_buf=16M",
}
BENCH_LINE = re.compile(r"mbedtls-bench: (live|held) selftest_insns=(\d+) flush_insns=(\d+)")
SITES = re.compile(r"trace: (\d+) sites ready")


def source_dir():
    try:
        with open("build/third-party/mbedtls.dir") as f:
            d = f.read().strip()
    except OSError:
        return None
    return d if os.path.isfile(os.path.join(d, "library", "aes.c")) else None


def one(boot, image, totals, args, mode):
    """One boot; a dict of its figures, or None (printed why)."""
    status, out = boot(image, f"{BASE_ARGS} {args} -- {mode} {SUITES}".replace("  ", " "))
    text = "".join(c for c in out if c == "\n" or " " <= c <= "~")
    b = BENCH_LINE.search(text)
    t = totals.search(text)
    s = SITES.search(text)
    if status != 0 or not b or "[ All tests PASS ]" not in text or not s:
        print(f"bench: mbedtls ({args} -- {mode}) failed (status {status})")
        print("\n".join(line[-200:] for line in text.splitlines()[-12:]))
        return None
    r = {"selftest": int(b.group(2)), "flush": int(b.group(3)), "sites": int(s.group(1)),
         "events": 0, "lost": 0, "wire": 0}
    if t:
        r.update(events=int(t.group(1)), lost=int(t.group(2)), wire=int(t.group(4)))
    return r


def bench_mbedtls(boot, totals, bench_image):
    """Builds and boots examples/mbedtls; the figures for mbedtls.json,
    or None (after saying why)."""
    if source_dir() is None:
        print("bench: FAILED: mbed TLS's source is missing (build/third-party/mbedtls.dir "
              "names no unpacked source): run tools/fetch-source mbedtls (make bench "
              "does); make bench measures the tracers on its self-test")
        return None
    board = os.path.basename(os.path.dirname(os.path.dirname(os.path.abspath(bench_image))))
    build = subprocess.run(["make", "--no-print-directory", f"BOARD={board}",
                            "APP=examples/mbedtls"], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    if build.returncode != 0:
        print(build.stdout.decode(errors="replace")[-3000:])
        print("bench: FAILED: make APP=examples/mbedtls")
        return None
    image = os.path.join(os.path.dirname(os.path.dirname(bench_image)),
                         "app-examples-mbedtls", "Image")

    untraced = one(boot, image, totals, "", "bench")
    if untraced is None:
        return None
    runs = {}
    for tracer, args in TRACED.items():
        modes = ("bench",) if tracer == "profile" else ("bench", "bench-held")
        for mode in modes:
            r = one(boot, image, totals, args, mode)
            if r is None:
                return None
            runs[tracer, mode] = r
    calls = runs["function", "bench"]["events"]
    u = untraced["selftest"]
    fig = {"suites": "every suite but ecjpake and ecp (selftest " + SUITES + ")",
           "filter": FILTER, "trace_max_depth": None, "trace_buf_per_cpu": "16M",
           "sites_total": untraced["sites"], "calls": calls,
           "untraced_selftest_insns": u}
    lost = 0
    for tracer in TRACED:
        live = runs[tracer, "bench"]
        held = runs.get((tracer, "bench-held"), live)
        lost += live["lost"] + held["lost"]
        traced_cpu = held["selftest"] - u
        t = {
            "events": live["events"],
            "events_per_call": round(live["events"] / calls, 3),
            "lost": live["lost"] + held["lost"],
            "wire_bytes": live["wire"],
            "wire_bytes_per_call": round(live["wire"] / calls, 3),
            "traced_cpu_insns_per_call": round(traced_cpu / calls, 2),
            "export_insns_per_call": round(held["flush"] / calls, 2),
            "exporting_cpus_insns_per_call": round(
                (live["selftest"] + live["flush"] - held["selftest"]) / calls, 2),
            "all_cpus_insns_per_call": round(
                (live["selftest"] + live["flush"] - u) / calls, 2),
            "slowdown": round((live["selftest"] + live["flush"]) / u, 3),
            "selftest_insns": live["selftest"], "flush_insns": live["flush"],
        }
        if held is not live:
            t.update(held_selftest_insns=held["selftest"], held_flush_insns=held["flush"],
                     held_events=held["events"])
        fig[tracer] = t
    fig["lost"] = lost

    print(f"\nmbed TLS self-test ({fig['suites']}), {calls} calls of {FILTER} "
          f"functions, {u} insns untraced, {fig['sites_total']} sites:")
    print("| tracer | events | lost | traced CPU insns/call | export insns/call (flush) "
          "| exporting CPUs insns/call (live) | all CPUs insns/call | wire bytes/call |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for tracer in TRACED:
        t = fig[tracer]
        print(f"| {tracer} | {t['events']} | {t['lost']} | {t['traced_cpu_insns_per_call']:.2f} "
              f"| {t['export_insns_per_call']:.2f} | {t['exporting_cpus_insns_per_call']:.2f} "
              f"| {t['all_cpus_insns_per_call']:.2f} | {t['wire_bytes_per_call']:.3f} |")
    if lost:
        print(f"bench: FAILED: mbedtls: {lost} events lost (the per-call figures need none)")
        return None
    g = fig["function_graph"]["events"]
    if not calls or abs(g - 2 * calls) > 2:
        print(f"bench: FAILED: mbedtls: function_graph recorded {g} events for {calls} calls")
        return None
    return fig
