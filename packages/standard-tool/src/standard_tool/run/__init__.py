"""Running a tool: call and acall, time limits and event loops, progress and logs, redaction."""
