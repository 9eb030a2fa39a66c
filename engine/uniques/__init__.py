"""One module per unique district, each registering its `Unique` (see engine.hooks)."""
