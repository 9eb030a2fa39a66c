"""The game service: the table actor (one asyncio task per table), its seats and timers, the bot pool."""
