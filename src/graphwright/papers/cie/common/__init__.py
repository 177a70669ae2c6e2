"""Pieces every CIExMAS architecture shares: settings, one agent turn with error
incorporation, the specialist extractors, the final Turtle check, and the result."""
