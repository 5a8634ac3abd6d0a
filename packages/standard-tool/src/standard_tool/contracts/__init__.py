"""Tool contracts over time: what a tool promised (its digests and snapshots), what changed
between two versions of it (a breaking-change diff), and where its schema leaves the core of
JSON Schema that every provider and framework reads alike (a portability lint)."""

__all__: list[str] = []
