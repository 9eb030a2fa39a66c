"""Cluster settings: the --cluster URLs and the [cluster] table, refused in one line each."""

from __future__ import annotations

from pathlib import Path

import pytest

from server.cluster.config import ClusterConfigError, cluster_config, load_cluster_table, parse_servers


def test_urls_are_parsed_and_checked() -> None:
    assert parse_servers("nats://a:4222, nats://b:4222") == ["nats://a:4222", "nats://b:4222"]
    assert parse_servers("tls://user:pw@h:4443") == ["tls://user:pw@h:4443"]
    for bad, why in [
        ("", "at least one"),
        ("http://a:4222", "use nats://"),
        ("nats://:4222", "no host"),
        ("nats://a:99999", "not a NATS URL"),
        ("nats://a:4222/path", "only scheme"),
        ("a:4222", "use nats://"),
    ]:
        with pytest.raises(ClusterConfigError, match=why):
            parse_servers(bad)


def test_settings_are_checked_together() -> None:
    config = cluster_config("nats://a:4222", node_id="n1", heartbeat_seconds=2, node_ttl_seconds=6)
    assert config.node() == "n1" and config.servers == ["nats://a:4222"]
    # The settings of the per-table leases before 2026-11-26: an older config file still loads.
    assert cluster_config("nats://a:4222", lease_ttl_seconds=6, lease_renew_seconds=2).node_ttl_seconds == 3.0
    assert cluster_config("nats://a:4222").node()  # a default id: host-pid
    for settings, why in [
        (dict(heartbeat_seconds=1.0, node_ttl_seconds=2.0, lease_margin_seconds=1.0), "below node_ttl"),
        (dict(heartbeat_seconds=3.0, node_ttl_seconds=4.0), "heartbeat_seconds"),
        (dict(node_id="bad id"), "node id"),
        (dict(namespace="Bad"), "namespace"),
        (dict(storage="disk"), "storage"),
        (dict(replicas=0), "replicas"),
        (dict(leases=3), "unknown cluster setting 'leases'"),
        (dict(credentials_file="/nonexistent.creds"), "no such file"),
    ]:
        with pytest.raises(ClusterConfigError, match=why):
            cluster_config("nats://a:4222", **settings)


def test_the_cluster_table_of_a_config_file(tmp_path: Path) -> None:
    path = tmp_path / "citadels.toml"
    path.write_text('port = 2222\n[cluster]\nnamespace = "prod"\nreplicas = 3\n')
    table = load_cluster_table(path)
    assert cluster_config("nats://a:4222", **table).replicas == 3
    path.write_text("port = 2222\n")
    assert load_cluster_table(path) == {}
    path.write_text("cluster = 3\n")
    with pytest.raises(ClusterConfigError, match="must be a table"):
        load_cluster_table(path)
    with pytest.raises(ClusterConfigError, match="file not found"):
        load_cluster_table(tmp_path / "missing.toml")
