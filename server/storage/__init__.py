"""Storage on disk: each table's command log and snapshot, atomic writes, exports."""
