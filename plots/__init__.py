"""Plots: matplotlib drawing of scenes, measurements and moves."""

__all__: list[str] = []
