"""Build, serve and development tools (standard library only)."""
