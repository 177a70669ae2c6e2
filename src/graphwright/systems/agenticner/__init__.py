"""AgenticNER (issue 6, paper 002): domain-agnostic NER from entity definitions."""
