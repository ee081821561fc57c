"""Tlatelolco in the browser: the web server (FastAPI), its storage and its live updates."""

from tlatelolco.web.app import Settings, create_app

__all__ = ["Settings", "create_app"]
