"""Evaluation: gold data, the CIExMAS metrics, the run harness, reports and the linking benchmark."""
