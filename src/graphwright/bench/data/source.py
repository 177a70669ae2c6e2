"""The benchmarks' answer to the systems' dataset requests (graphwright.systems.datasets), registered as the
``graphwright.datasets`` entry point."""

from __future__ import annotations

from typing import Any

from graphwright.bench.data.ee_data import EE_DATASETS, EEDataset, load_ee_dataset
from graphwright.bench.data.ner_data import NER_DATASETS, NERDataset, load_ner_dataset
from graphwright.bench.data.re_data import RE_DATASETS, REDataset, load_re_dataset
from graphwright.registry import Registry
from graphwright.systems.datasets import Task


class BenchmarkDatasets:
    def relations(self, name: str) -> REDataset:
        return load_re_dataset(name)

    def entities(self, name: str) -> NERDataset:
        return load_ner_dataset(name)

    def events(self, name: str) -> EEDataset:
        return load_ee_dataset(name)

    def task(self, name: str) -> Task | None:
        registries: tuple[tuple[Task, Registry[Any]], ...] = (
            ("ner", NER_DATASETS),
            ("re", RE_DATASETS),
            ("ee", EE_DATASETS),
        )
        for task, registry in registries:
            if name in registry:
                return task
        return None


DATASETS = BenchmarkDatasets()
