"""Browser edge of the game (PyScript). PLACEHOLDER from the infrastructure work."""
