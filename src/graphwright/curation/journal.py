"""The store's journal: what a command began and must finish (a deletion, the rewrite after an edit), in
a graph of its own, so that a command killed half-way is completed by the next one."""

JOURNAL_GRAPH = "urn:graphwright:journal"
