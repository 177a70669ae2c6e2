"""The five published agent systems, each with its presets: CIExMAS (``cie``), AgentRE (``agentre``),
AgenticNER (``agenticner``), CooperKGC (``cooperkgc``) and Agentic-KGR (``agentic_kgr``).

They are measured against their papers (docs/BENCHMARKS.md) and register like any other system, through
the ``graphwright.systems`` entry points; the product core (graphwright.systems and everything below it)
never imports them.
"""
