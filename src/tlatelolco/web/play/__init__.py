"""The server's authority over games: lobby operations, the action pipeline, per-seat views."""
