"""Where one `1+1` goes, on the wall clock, and paired kernels compared.

A bare pyzmq client (shell DEALER, iopub SUB; signing and json.loads, no
jupyter_client) sends `1+1` to each kernel in turn, in blocks, so that the
load of the machine falls on all alike. For every execute it notes when the
request left, when each message arrived (busy, execute_input,
execute_result, the shell reply, idle) and the date in each message's
header, which the kernel stamps as it makes the message: the two processes
share one clock, so the path from the send to the idle status reads off
as milliseconds on both sides of the wire. Between execute_input's stamp
and execute_result's lies the engine's call (the worker hop and the
cell's evaluation).

  /usr/bin/python3 bench/kernel/path.py --kernel old=/tmp/old/gobayes \\
      --kernel new=bin/gobayes --ipykernel --rounds 5 --runs 200

With --profile DIR, each gobayes kernel writes a CPU profile of the
measured rounds to DIR/NAME/cpu-2.pprof (GOBAYES_PROFILE_DIR; read it with
go tool pprof -top BINARY FILE).

It prints, per kernel, the median of each step (ms from the send) and the
median `1+1` round trip to idle per round, with its ratio to ipykernel's in
the same round, and the load average.
"""
import argparse
import datetime
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid

import zmq

from bench import EXECUTE, signed_request

def free_ports(n):
    socks, ports = [], []
    for _ in range(n):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        socks.append(s)
        ports.append(s.getsockname()[1])
    for s in socks:
        s.close()
    return ports


def stamp(date):
    """Seconds since the epoch of a header's ISO 8601 date."""
    if date.endswith("Z"):
        date = date[:-1] + "+00:00"
    return datetime.datetime.fromisoformat(date).timestamp()


class Kernel:
    def __init__(self, name, argv, tmp, env=None):
        self.name = name
        ports = free_ports(5)
        self.key = uuid.uuid4().hex.encode()
        info = {"transport": "tcp", "ip": "127.0.0.1", "shell_port": ports[0], "control_port": ports[1],
                "iopub_port": ports[2], "stdin_port": ports[3], "hb_port": ports[4],
                "signature_scheme": "hmac-sha256", "key": self.key.decode(), "kernel_name": name}
        path = os.path.join(tmp, name + ".json")
        with open(path, "w") as f:
            json.dump(info, f)
        self.proc = subprocess.Popen([a.replace("{connection_file}", path) for a in argv],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        self.ctx = zmq.Context()
        ep = lambda p: "tcp://127.0.0.1:%d" % p
        self.shell = self.ctx.socket(zmq.DEALER)
        self.shell.connect(ep(ports[0]))
        self.sub = self.ctx.socket(zmq.SUB)
        self.sub.setsockopt(zmq.SUBSCRIBE, b"")
        self.sub.connect(ep(ports[2]))
        self.poller = zmq.Poller()
        self.poller.register(self.shell, zmq.POLLIN)
        self.poller.register(self.sub, zmq.POLLIN)
        deadline = time.time() + 60
        while True:  # until iopub delivers
            try:
                self.request("kernel_info_request", {}, timeout=0.5)
                break
            except TimeoutError:
                if time.time() > deadline:
                    raise
        for _ in range(30):
            self.request("execute_request", EXECUTE)

    def request(self, msg_type, content, timeout=60.0):
        """Sends one request; returns (t_send, events) where events maps
        busy, execute_input, execute_result, reply, idle to (arrival,
        header stamp), all in seconds since the epoch."""
        msg_id, frames = signed_request(self.key, msg_type, content, session="path")
        events = {}
        t0 = time.time()
        self.shell.send_multipart(frames)
        deadline = t0 + timeout
        while "idle" not in events or "reply" not in events:
            left = deadline - time.time()
            if left <= 0:
                raise TimeoutError
            for sock, _ in self.poller.poll(max(1, int(left * 1000))):
                frames = sock.recv_multipart()
                t = time.time()
                i = frames.index(b"<IDS|MSG>")
                parent = json.loads(frames[i + 3])
                if parent.get("msg_id") != msg_id:
                    continue
                header = json.loads(frames[i + 2])
                kind = header["msg_type"]
                if sock is self.shell:
                    kind = "reply"
                elif kind == "status":
                    kind = json.loads(frames[i + 5])["execution_state"]
                events.setdefault(kind, (t, stamp(header["date"])))
        return t0, events

    def close(self):
        self.shell.close(0)
        self.sub.close(0)
        self.ctx.term()
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


STEPS = ("busy", "execute_input", "execute_result", "reply", "idle")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kernel", action="append", default=[], metavar="NAME=BINARY",
                    help="a gobayes binary to measure (repeatable)")
    ap.add_argument("--ipykernel", action="store_true", help="measure Debian's ipykernel too (the anchor)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--runs", type=int, default=200, help="executes per kernel per round")
    ap.add_argument("--profile", metavar="DIR", help="CPU profiles of the gobayes kernels' measured rounds")
    args = ap.parse_args()
    specs = []
    for k in args.kernel:
        name, _, exe = k.partition("=")
        specs.append((name, [os.path.abspath(exe), "kernel", "-f", "{connection_file}"]))
    if args.ipykernel:
        specs.append(("ipykernel", ["/usr/bin/python3", "-m", "ipykernel_launcher", "-f", "{connection_file}"]))
    if not specs:
        sys.exit("bench/kernel/path.py: name a --kernel or --ipykernel")
    os.environ.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")
    with tempfile.TemporaryDirectory() as tmp:
        kernels = []
        for n, argv in specs:
            env = None
            if args.profile and n != "ipykernel":
                env = dict(os.environ, GOBAYES_PROFILE_DIR=os.path.join(os.path.abspath(args.profile), n),
                           GOBAYES_PROFILE_CPU="1")
                os.makedirs(env["GOBAYES_PROFILE_DIR"], exist_ok=True)
            kernels.append(Kernel(n, argv, tmp, env))
        profiled = [k for k in kernels if args.profile and k.name != "ipykernel"]
        try:
            for k in profiled:  # the start and warm-up go to cpu-1.pprof
                k.proc.send_signal(signal.SIGUSR1)
            rounds = {k.name: [] for k in kernels}
            steps = {k.name: {s: ([], []) for s in STEPS} for k in kernels}
            loads = []
            for r in range(args.rounds):
                loads.append(os.getloadavg()[0])
                for k in kernels:
                    trips = []
                    for _ in range(args.runs):
                        t0, ev = k.request("execute_request", EXECUTE)
                        trips.append(ev["idle"][0] - t0)
                        for s in STEPS:
                            if s in ev:
                                steps[k.name][s][0].append(ev[s][0] - t0)
                                steps[k.name][s][1].append(ev[s][1] - t0)
                    rounds[k.name].append(statistics.median(trips))
            loads.append(os.getloadavg()[0])
            for k in profiled:
                k.proc.send_signal(signal.SIGUSR1)
            time.sleep(1)
        finally:
            for k in kernels:
                k.close()
    ms = lambda s: "%7.3f" % (s * 1000)
    print("bare-client `1+1`, %d rounds x %d executes per kernel, load average %.1f-%.1f" % (
        args.rounds, args.runs, min(loads), max(loads)))
    print("\nmedian ms from the request's send: stamped by the kernel / arrived at the client")
    print("%-16s" % "" + "".join("%22s" % s for s in STEPS))
    for k in kernels:
        cells = []
        for s in STEPS:
            arr, st = steps[k.name][s]
            cells.append("%10s / %-9s" % (ms(statistics.median(st)) if st else "-",
                                          ms(statistics.median(arr)).strip() if arr else "-"))
        print("%-16s" % k.name + "".join("%22s" % c for c in cells))
    print("\nmedian round trip to idle per round, ms (ratio to ipykernel in the same round)")
    for k in kernels:
        row = []
        for r, t in enumerate(rounds[k.name]):
            cell = ms(t).strip()
            if "ipykernel" in rounds and k.name != "ipykernel":
                cell += " (%.3f)" % (t / rounds["ipykernel"][r])
            row.append(cell)
        print("%-16s %s   median %s" % (k.name, "  ".join(row), ms(statistics.median(rounds[k.name])).strip()))
    names = [k.name for k in kernels if k.name != "ipykernel"]
    if len(names) >= 2:
        a, b = names[0], names[1]
        ratios = [y / x for x, y in zip(rounds[a], rounds[b])]
        print("\n%s/%s per round: %s   median %.3f" % (b, a, " ".join("%.3f" % x for x in ratios),
                                                    statistics.median(ratios)))


if __name__ == "__main__":
    main()
