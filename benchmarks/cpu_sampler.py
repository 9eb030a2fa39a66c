"""A sampling profiler in CPU time, for the server under load (`server_scale.py --profile F --cpu-samples`).

cProfile times calls in wall time and triples the cost of Python calls; on a shared machine a
`socket.send` or a poll includes time the process was not running. This sampler takes the main
thread's stack every `interval` seconds of the process's own CPU time (ITIMER_PROF: user + system,
a SIGPROF each time; the kernel delivers them at its tick, so 2 ms asked gave one every 4 ms on the
2-CPU machine), so a stack's share of the samples is its share of the CPU: scale the samples to the
CPU measured, not to the interval. A C call (a
cipher, a send) is counted in the Python frame that made it: the handler runs when it returns.

`dump(path)` writes folded stacks, one a line, root first: `func (file:line);...;func (file:line) N`
(the format of py-spy's `--format raw` and of flamegraph.pl).
"""

from __future__ import annotations

import collections
import signal
from types import CodeType, FrameType
from typing import Any


class CpuSampler:
    def __init__(self, interval: float = 0.002) -> None:
        self.interval = interval
        self.counts: collections.Counter[tuple[CodeType, ...]] = collections.Counter()
        self._previous: Any = None

    def _sample(self, signum: int, frame: FrameType | None) -> None:
        codes = []
        while frame is not None:
            codes.append(frame.f_code)
            frame = frame.f_back
        self.counts[tuple(codes)] += 1

    def start(self) -> None:
        self.counts.clear()
        self._previous = signal.signal(signal.SIGPROF, self._sample)
        signal.setitimer(signal.ITIMER_PROF, self.interval, self.interval)

    def stop(self) -> None:
        signal.setitimer(signal.ITIMER_PROF, 0, 0)
        signal.signal(signal.SIGPROF, self._previous or signal.SIG_DFL)

    def dump(self, path: str) -> None:
        def name(c: CodeType) -> str:
            return f"{c.co_qualname} ({c.co_filename}:{c.co_firstlineno})"

        with open(path, "w") as f:
            f.write(f"# cpu samples, one per {self.interval * 1000:g} ms of CPU asked (or per tick, if longer)\n")
            for codes, n in self.counts.most_common():
                f.write(";".join(name(c) for c in reversed(codes)) + f" {n}\n")
