"""JSON values and JSON Schemas: what is JSON data, validation with issues, dialects."""
