"""Plugins: the registry, the hooks, the adapter kit, and the core's own targets."""
