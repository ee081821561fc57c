"""Work done away from the event loop: bot moves, hints and reviews in worker processes."""
