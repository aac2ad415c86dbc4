"""Kernel benchmark: gobayes against Debian's ipykernel, through jupyter_client,
in the same run.

  start      launching the kernel process → its first kernel_info_reply
  first cell launching → the idle status after the first `1+1` (the
             interpreter's start included)
  round trip execute_request of `1+1` → the idle status of that request,
             over --runs requests on a warm kernel (p50, p99)
  kernel_info kernel_info_request → its idle status: the protocol and the
             client alone, a floor under any kernel's round trip
  client alone  jupyter_client's own time on a `1+1`'s four iopub messages
             once they wait in its socket (sent, 5 ms of sleep, then timed
             to idle): a floor under any kernel's round trip through it
  raw        the same two round trips from a bare pyzmq client (signing,
             json.loads of the frames), without jupyter_client's per-message
             work (nest_asyncio, two dateutil parses of dates): the kernel's
             own share. Through jupyter_client each iopub message costs the
             client a fixed ~0.5 ms on the loaded 2-core machine, and `1+1`
             needs four of them.

Targets (issue 2): gobayes start ≤ 1/4 of ipykernel's, p50 round trip ≤ 1/5.

  /usr/bin/python3 bench/kernel/bench.py [--runs 500] [--starts 10]
"""
import argparse
import hashlib
import hmac
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from queue import Empty

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def install_gobayes(tmp):
    exe = os.environ.get("GOBAYES_BIN") or os.path.join(ROOT, "bin", "gobayes")
    if not os.access(exe, os.X_OK):
        sys.exit("bench/kernel: %s is missing; run make build" % exe)
    prefix = os.path.join(tmp, "prefix")
    subprocess.run([exe, "install", "--prefix", prefix], check=True, stdout=subprocess.DEVNULL)
    os.environ["JUPYTER_PATH"] = os.path.join(prefix, "share", "jupyter")
    os.environ["JUPYTER_RUNTIME_DIR"] = os.path.join(tmp, "runtime")
    os.environ["PYDEVD_DISABLE_FILE_VALIDATION"] = "1"


def wait_idle(kc, msg_id, timeout=60):
    deadline = time.perf_counter() + timeout
    while True:
        m = kc.get_iopub_msg(timeout=max(0.001, deadline - time.perf_counter()))
        if (m["msg_type"] == "status" and m["content"]["execution_state"] == "idle"
                and m["parent_header"].get("msg_id") == msg_id):
            return


def wait_reply(kc, msg_id, timeout=60):
    deadline = time.perf_counter() + timeout
    while True:
        m = kc.get_shell_msg(timeout=max(0.001, deadline - time.perf_counter()))
        if m["parent_header"].get("msg_id") == msg_id:
            return m


def wait_iopub_live(kc):
    """Returns once iopub delivers: the status of a kernel_info request
    arrives. (kc.wait_for_ready also waits for 0.2 s of silence on iopub,
    which would count as kernel time.)"""
    while True:
        msg_id = kc.kernel_info()
        wait_reply(kc, msg_id)
        try:
            wait_idle(kc, msg_id, timeout=0.2)
            return
        except Empty:
            continue


def launch(name):
    """Starts a kernel; returns (km, kc, seconds to the first kernel_info_reply)."""
    from jupyter_client.manager import KernelManager

    km = KernelManager(kernel_name=name)
    t0 = time.perf_counter()
    km.start_kernel()
    kc = km.client()
    kc.start_channels()
    asked = set()
    while True:
        asked.add(kc.kernel_info())
        try:
            m = kc.get_shell_msg(timeout=0.5)
        except Empty:
            continue
        if m["parent_header"].get("msg_id") in asked:  # any of the requests
            return km, kc, time.perf_counter() - t0, t0


def stop(km, kc):
    kc.stop_channels()
    km.shutdown_kernel(now=True)


def measure_starts(names, starts):
    """Median start and first-cell times per kernel over starts launches,
    alternating kernels so that both see the same machine load (after one
    launch each to warm the page cache and jupyter_client)."""
    for name in names:
        stop(*launch(name)[:2])
    start = {n: [] for n in names}
    first = {n: [] for n in names}
    for _ in range(starts):
        for name in names:
            km, kc, s, t0 = launch(name)
            start[name].append(s)
            # The iopub subscription may lag the first reply: make sure it
            # is live before sending the first cell.
            wait_iopub_live(kc)
            msg_id = kc.execute("1+1")
            wait_idle(kc, msg_id)
            first[name].append(time.perf_counter() - t0)
            wait_reply(kc, msg_id)
            stop(km, kc)
    return {n: (statistics.median(start[n]), statistics.median(first[n])) for n in names}


def round_trip(kc, request):
    t0 = time.perf_counter()
    msg_id = request()
    wait_idle(kc, msg_id)
    t = time.perf_counter() - t0
    reply = wait_reply(kc, msg_id)
    assert reply["content"]["status"] == "ok", reply
    return t


def drain(kc, runs):
    """p50 of the client's own time for a `1+1`: the request is sent, its
    messages are left 20 ms to arrive and wait in the socket, then timed
    from there to the idle status. That is jupyter_client's work on the
    four iopub messages with no kernel to wait for; any kernel's round
    trip through jupyter_client takes at least this long."""
    times = []
    for _ in range(runs):
        msg_id = kc.execute("1+1")
        time.sleep(0.005)
        t0 = time.perf_counter()
        wait_idle(kc, msg_id)
        times.append(time.perf_counter() - t0)
        wait_reply(kc, msg_id)
    return percentiles(times)[0]


def percentiles(times):
    times = sorted(times)
    return times[len(times) // 2], times[min(len(times) - 1, int(len(times) * 0.99))]


def signed_request(key, msg_type, content, session="bench"):
    """(msg_id, frames) of a request signed with key, for a DEALER."""
    msg_id = uuid.uuid4().hex
    parts = [json.dumps({"msg_id": msg_id, "session": session, "username": "bench",
                         "date": "2026-01-01T00:00:00.000000Z", "msg_type": msg_type,
                         "version": "5.3"}).encode(), b"{}", b"{}", json.dumps(content).encode()]
    mac = hmac.new(key, digestmod=hashlib.sha256)
    for part in parts:
        mac.update(part)
    return msg_id, [b"<IDS|MSG>", mac.hexdigest().encode()] + parts


class RawClient:
    """A bare ZeroMQ client of a running kernel: shell DEALER and iopub
    SUB sockets of its own, signed messages, and nothing else."""

    def __init__(self, km):
        import zmq

        self.zmq = zmq
        info = km.get_connection_info()
        self.key = info["key"] if isinstance(info["key"], bytes) else info["key"].encode()
        self.ctx = zmq.Context()
        ep = lambda port: "%s://%s:%d" % (info.get("transport", "tcp"), info["ip"], port)
        self.shell = self.ctx.socket(zmq.DEALER)
        self.shell.connect(ep(info["shell_port"]))
        self.sub = self.ctx.socket(zmq.SUB)
        self.sub.setsockopt(zmq.SUBSCRIBE, b"")
        self.sub.connect(ep(info["iopub_port"]))
        # the subscription reaches the kernel asynchronously
        while True:
            try:
                self.round_trip("kernel_info_request", {}, timeout=200)
                return
            except TimeoutError:
                continue

    def round_trip(self, msg_type, content, timeout=60000):
        """Seconds from sending a request to its idle status."""
        t0 = time.perf_counter()
        msg_id, frames = signed_request(self.key, msg_type, content)
        self.shell.send_multipart(frames)
        deadline = t0 + timeout / 1000
        while True:
            if not self.sub.poll(max(1, int(1000 * (deadline - time.perf_counter())))):
                raise TimeoutError
            frames = self.sub.recv_multipart()
            i = frames.index(b"<IDS|MSG>")
            if (json.loads(frames[i + 3]).get("msg_id") == msg_id
                    and json.loads(frames[i + 2])["msg_type"] == "status"
                    and json.loads(frames[i + 5])["execution_state"] == "idle"):
                t = time.perf_counter() - t0
                break
        while True:  # the reply
            frames = self.shell.recv_multipart()
            if json.loads(frames[frames.index(b"<IDS|MSG>") + 3]).get("msg_id") == msg_id:
                return t

    def close(self):
        self.shell.close(0)
        self.sub.close(0)
        self.ctx.term()


EXECUTE = {"code": "1+1", "silent": False, "store_history": True, "user_expressions": {},
           "allow_stdin": False, "stop_on_error": True}


def measure_raw(kernels, runs, block=50):
    """p50 of `1+1` and kernel_info from RawClients, in turns as above."""
    clients = {n: RawClient(km) for n, (km, kc) in kernels.items()}
    try:
        execute = {n: [] for n in clients}
        info = {n: [] for n in clients}
        for c in clients.values():
            for _ in range(20):
                c.round_trip("execute_request", EXECUTE)
        done = 0
        while done < runs:
            n = min(block, runs - done)
            for name, c in clients.items():
                for _ in range(n):
                    execute[name].append(c.round_trip("execute_request", EXECUTE))
                for _ in range(max(1, n // 5)):
                    info[name].append(c.round_trip("kernel_info_request", {}))
            done += n
    finally:
        for c in clients.values():
            c.close()
    return {n: (percentiles(execute[n])[0], percentiles(info[n])[0]) for n in clients}


def measure_round_trips(names, runs, block=50):
    """p50 and p99 of `1+1` (execute → idle) and of kernel_info (request →
    idle: the protocol alone, no interpreter) per kernel. Both kernels run
    at once and take turns in blocks, so that load on the machine falls on
    both alike."""
    kernels = {}
    try:
        for name in names:
            km, kc, _, _ = launch(name)
            wait_iopub_live(kc)
            kernels[name] = (km, kc)
            for _ in range(20):  # warm up: the first cells compile and allocate
                round_trip(kc, lambda: kc.execute("1+1"))
        execute = {n: [] for n in names}
        info = {n: [] for n in names}
        done = 0
        while done < runs:
            n = min(block, runs - done)
            for name in names:
                kc = kernels[name][1]
                for _ in range(n):
                    execute[name].append(round_trip(kc, lambda: kc.execute("1+1")))
                for _ in range(max(1, n // 5)):
                    info[name].append(round_trip(kc, kc.kernel_info))
            done += n
        raw = measure_raw(kernels, runs, block)
        floor = {n: drain(kernels[n][1], min(runs, 200)) for n in names}
    finally:
        for km, kc in kernels.values():
            stop(km, kc)
    return {n: percentiles(execute[n]) + percentiles(info[n]) + raw[n] + (floor[n],) for n in names}


def ms(s):
    return "%8.2f ms" % (s * 1000)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=500, help="1+1 round trips per kernel")
    ap.add_argument("--starts", type=int, default=10, help="launches per kernel")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        install_gobayes(tmp)
        names = ("gobayes", "python3")
        starts = measure_starts(names, args.starts)
        trips = measure_round_trips(names, args.runs)
    g, p = starts["gobayes"] + trips["gobayes"], starts["python3"] + trips["python3"]
    print("kernel benchmark: %d launches, %d round trips of 1+1 per kernel (jupyter_client %s)" % (
        args.starts, args.runs, __import__("jupyter_client").__version__))
    print("%-22s %12s %12s %12s" % ("", "gobayes", "ipykernel", "ratio"))
    labels = ("start (median)", "first cell (median)", "1+1 round trip p50", "1+1 round trip p99",
              "kernel_info p50", "kernel_info p99", "raw 1+1 p50", "raw kernel_info p50",
              "client alone, 1+1 p50")
    for i, label in enumerate(labels):
        print("%-22s %12s %12s %12.3f" % (label, ms(g[i]), ms(p[i]), g[i] / p[i]))
    start_ok = g[0] <= p[0] / 4
    rt_ok = g[2] <= p[2] / 5
    print("target start <= 1/4 of ipykernel: %s (%.3f)" % ("met" if start_ok else "MISSED", g[0] / p[0]))
    print("target p50 round trip <= 1/5 of ipykernel: %s (%.3f)" % ("met" if rt_ok else "MISSED", g[2] / p[2]))
    print("jupyter_client alone spends %.2f ms on a 1+1's messages once they have arrived (%.3f of "
          "ipykernel's p50): a kernel taking no time at all would measure at least that" % (
              g[8] * 1000, g[8] / p[2]))


if __name__ == "__main__":
    main()
