"""Maneuvers: X-Wing templates and moves, bumps and obstacle order; the Armada tool."""

__all__: list[str] = []
