"""Bots: they decide from a seat's view (and its legal commands) only.

    from engine.bots.registry import make_bot
    bot = make_bot("normal", seed, style=None)      # kinds: random, easy, normal, hard
    cmd = bot.choose(view.legal, view)              # view = engine.view(state, seat)

- `random_bot`: uniform over the legal commands (a test tool).
- `easy`: the normal bot's scores with a wide spread, no fear, some random moves.
- `normal`: heuristics (`knowledge`: one entry per card, generic fallbacks; `ctx`: the
  reading of a view: leader, who may hold which character, what a card is worth).
- `hard`: information-set Monte Carlo: `determinize` samples worlds consistent with the view,
  candidates are played out by normal bots; `budget_ms` (default 300, max 1000) or `iterations`.
- `styles`: balanced, aggressive, builder, merchant, cautious; names per style.

Pure and synchronous: the process pool that runs hard bots for the server is
`server/tables/bot_pool.py`.
"""
