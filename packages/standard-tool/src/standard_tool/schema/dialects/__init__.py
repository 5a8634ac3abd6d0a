"""JSON Schema dialects: one walk, the drafts' and the model providers' rules, and a registry."""
