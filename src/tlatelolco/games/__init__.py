"""One package per game; each registers itself in `tlatelolco.registry`."""
