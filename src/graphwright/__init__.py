"""graphwright: knowledge graphs from text with cooperating LLM agents.

    import graphwright
    run = graphwright.extract("Maren Solberg founded Tidewater Instruments in Oslo in 2016.")

The API is loaded on first use, so that ``import graphwright`` (and the command line) stays quick.
"""

__version__ = "0.1.0"
__all__ = ["Extraction", "extract", "extract_async", "open_store", "__version__"]


def __getattr__(name: str):
    if name in __all__:
        from graphwright import api

        return getattr(api, name)
    raise AttributeError(f"module 'graphwright' has no attribute {name!r}")
