"""`server_scale.py --workers N` puts this folder first on the server's PYTHONPATH: in a process
started as a cluster node (a worker of `citadels serve --workers N`) with CITADELS_BENCH_CONTROL set,
the benchmark's hooks are loaded (benchmarks/server_scale_worker.py); any other process is untouched
(the parent, its start check, the nats-server)."""

import os
import sys

if os.environ.get("CITADELS_BENCH_CONTROL") and "--cluster" in sys.argv:
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    import server_scale_worker  # noqa: F401
