"""The labelled data systems learn from and benchmarks score on: gold documents, the RE, NER and EE datasets
with their schemas, domains and guidelines, and the files they are read from. Below the systems (which
read their examples and pools here) and below eval (which registers these datasets and scores them)."""
