"""Host tools: bans that persist, and the `citadels admin` socket (list, kick, ban, close, broadcast)."""
