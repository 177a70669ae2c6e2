"""graphwright: knowledge graphs from text with cooperating LLM agents."""

__version__ = "0.1.0"
