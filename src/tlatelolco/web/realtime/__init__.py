"""Live play: WebSockets, the hub that announces changes and moves bots, chat, pub/sub."""
