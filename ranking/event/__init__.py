"""The event model: players, games, rounds, the event log, withdrawals, settings, undo, the clock."""
