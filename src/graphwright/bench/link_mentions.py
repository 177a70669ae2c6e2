"""`make bench-link-mentions`: the linker on users' kind of text, mention by mention (issue 61).

The texts of examples/linking/mentions.yaml name people, parties, towns, works and short words; each mention
has its gold answer: the default KB's entity the text means, or none (NIL) when the KB lacks it, even where
it holds a namesake. The linker is asked what `facts` asks of it: the KB entity of that name it proposes
(by label or alias), then open-world linking, which keeps the link when the text supports it and mints a
node of the name's own otherwise. No model is called.

Per half (dev, test, and the held-out halves written later, examples/linking/mentions-heldout*.yaml): wrong
links (linked to another entity than the gold one, or linked where the gold is none) over all links, NIL
accuracy (gold none, not linked), linking recall (gold entity, linked to it), and the same by kind of text. Each mention's outcome goes to the ledger
(docs/bench-ledger/link-mentions--<linker>-<split>.json).

    python -m graphwright.bench.link_mentions --split dev
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import yaml

from graphwright.bench.eval.benchmarks_md import write_section
from graphwright.bench.harness import BENCH_MD, header, slug
from graphwright.bench.ledger import LEDGER, ROOT, ReplayLLM, commit
from graphwright.kb import open_kb
from graphwright.kb.namespaces import is_unlinked, parse_wikidata_id
from graphwright.linking import LinkJudge
from graphwright.linking.abstain import Abstention, shipped_abstention
from graphwright.linking.check import Reading, open_questions, read_links
from graphwright.linking.resolve import Drop, Resolver
from graphwright.llm import make_llm
from graphwright.model import Document
from graphwright.model.result import Usage
from graphwright.systems.facts.kb_names import KBNames
from graphwright.text import occurrences

MENTIONS = ROOT / "examples" / "linking" / "mentions.yaml"  # the dev and test halves
HELDOUT = {
    "heldout": ROOT / "examples" / "linking" / "mentions-heldout.yaml",  # written after the test half was read
    "heldout2": ROOT / "examples" / "linking" / "mentions-heldout2.yaml",  # and after the first held-out half
    "heldout3": ROOT / "examples" / "linking" / "mentions-heldout3.yaml",  # and after the second, with the
    # model's check (linking=checked) built
    "heldout4": ROOT / "examples" / "linking" / "mentions-heldout4.yaml",  # and after the third
    "heldout5": ROOT / "examples" / "linking" / "mentions-heldout5.yaml",  # and after the fourth
    "heldout6": ROOT / "examples" / "linking" / "mentions-heldout6.yaml",  # and after the fifth's first run
    "heldout7": ROOT / "examples" / "linking" / "mentions-heldout7.yaml",  # and after the sixth was read
    "heldout8": ROOT / "examples" / "linking" / "mentions-heldout8.yaml",  # and after the seventh, before the
    # abstention was fitted on the seven
    "heldout9": ROOT / "examples" / "linking" / "mentions-heldout9.yaml",  # and after the eighth, blind to the
    # abstention fitted on the eight before it
    "heldout10": ROOT / "examples" / "linking" / "mentions-heldout10.yaml",  # and after the ninth, blind to the
    # abstention refitted on the nine before it
    "heldout11": ROOT / "examples" / "linking" / "mentions-heldout11.yaml",  # and after the tenth was read, blind
    # to the abstention refitted on the ten before it (Newton's fit)
}
BASELINE = "today"  # the linker as it was when the benchmark was written, before issue 61 changed it


@dataclass
class Outcome:
    text: str
    kind: str
    surface: str
    gold: str | None
    linked: str | None  # the QID linked, None: minted or dropped
    note: str = ""
    candidate: str | None = None  # the QID the rules and the reader let stand, linked or abstained from
    wrong_chance: float | None = None  # the abstention's chance that linking the candidate is wrong
    support: list[float] | None = None  # abstain.FEATURES of the candidate (not saved in the ledger)

    @property
    def wrong(self) -> bool:
        return self.linked is not None and self.linked != self.gold


def mention_sentence(document: Document, surface: str) -> str:
    """The sentence of the first whole-word occurrence of ``surface`` (the file's convention)."""
    found = occurrences(surface, document.text)
    if not found:
        raise ValueError(f"{surface!r} is not a whole word of its text")
    (first, last), *_ = found
    start = document.text.rfind(". ", 0, first)
    end = document.text.find(". ", last)
    return document.text[start + 2 if start >= 0 else 0 : end + 1 if end >= 0 else len(document.text)].strip()


def link_text(
    judge: LinkJudge,
    names: KBNames,
    text_id: str,
    text: str,
    surfaces: list[str],
    reading: Reading | None = None,
    abstention: Abstention | None = None,
) -> tuple[dict[str, str | None], Resolver]:
    """What the linker links each surface of one text to (None: minted or dropped), and its resolver."""
    document = Document(id=text_id, text=text)
    resolver = Resolver(
        judge,
        document,
        readings=reading.entities if reading else None,
        glosses=reading.glosses if reading else None,
        abstention=abstention,
    )
    linked: dict[str, str | None] = {}
    for surface in surfaces:
        try:
            outcome = resolver.link_or_mint(
                surface, names.record(surface), None, "value", mention_sentence(document, surface)
            )
        except Drop:
            linked[surface] = None
            continue
        term = outcome.terms[0]
        linked[surface] = None if is_unlinked(term.value) else parse_wikidata_id(term.value)
    return linked, resolver


async def run(split: str, reader=None, abstention: Abstention | None = None) -> tuple[list[Outcome], Usage, list[str]]:
    """Each mention's outcome; with ``reader`` (a model), the links the text leaves open are read as
    ``linking=checked`` reads them, one call per text; with ``abstention``, links too little speaks for are
    minted."""
    kb = open_kb("default")
    judge, names = LinkJudge(kb), KBNames(kb)
    path = HELDOUT.get(split, MENTIONS)
    texts = [t for t in yaml.safe_load(path.read_text(encoding="utf-8"))["texts"] if t["split"] == split]
    outcomes, usage, reasons = [], Usage(), []
    for t in texts:
        text, surfaces = t["text"].strip(), [m["surface"] for m in t["mentions"]]
        linked, resolver = link_text(judge, names, t["id"], text, surfaces, abstention=abstention)
        questions = open_questions(resolver.choices) if reader is not None else {}
        if questions:
            reading = await read_links(reader, judge.geography, text, questions)
            reasons += list(reading.reasons.values())
            usage = usage + reading.usage
            linked, resolver = link_text(judge, names, t["id"], text, surfaces, reading, abstention)
        supported = {d["surface"]: d for d in resolver.decisions if "support" in d}
        for m in t["mentions"]:
            weighed = supported.get(m["surface"], {})
            outcomes.append(
                Outcome(
                    t["id"],
                    t["kind"],
                    m["surface"],
                    m.get("kb"),
                    linked[m["surface"]],
                    m.get("note", ""),
                    weighed.get("candidate"),
                    weighed.get("wrong_chance"),
                    weighed.get("support"),
                )
            )
    return outcomes, usage, reasons


def rates(outcomes: list[Outcome]) -> dict:
    links = [o for o in outcomes if o.linked]
    nil = [o for o in outcomes if o.gold is None]
    entity = [o for o in outcomes if o.gold is not None]
    return {
        "mentions": len(outcomes),
        "links": len(links),
        "wrong": sum(o.wrong for o in links),
        "nil": len(nil),
        "nil_right": sum(o.linked is None for o in nil),
        "entity": len(entity),
        "entity_right": sum(o.linked == o.gold for o in entity),
    }


def table(split: str, outcomes: list[Outcome], command: str, linker: str) -> str:
    lines = header(
        f"Linking users' kind of text, mention by mention: the {split} half of examples/linking "
        f"({len(outcomes)} mentions)",
        None,
        command,
    )
    lines += [
        f"- linker: {linker}; scored at {commit()}",
        "",
        "| kind | mentions | links | wrong links | wrong-link rate | NIL accuracy | linking recall |",
        "|---|---|---|---|---|---|---|",
    ]
    kinds = sorted(Counter(o.kind for o in outcomes))
    for kind in [*kinds, "all"]:
        r = rates([o for o in outcomes if kind in ("all", o.kind)])
        lines.append(
            f"| {kind} | {r['mentions']} | {r['links']} | {r['wrong']} | "
            f"{r['wrong'] / max(1, r['links']):.3f} | {r['nil_right']}/{r['nil']} "
            f"({r['nil_right'] / max(1, r['nil']):.3f}) | {r['entity_right']}/{r['entity']} "
            f"({r['entity_right'] / max(1, r['entity']):.3f}) |"
        )
    wrong = [o for o in outcomes if o.wrong]
    lines += [
        "",
        "Wrong links: "
        + ("; ".join(f'{o.text} "{o.surface}" -> {o.linked} (gold {o.gold or "none"})' for o in wrong) or "none"),
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--split",
        choices=("dev", "test", *HELDOUT),
        default="dev",
        help="heldout, heldout2, ... heldout11: halves written later, each after the one before was read",
    )
    parser.add_argument(
        "--linker",
        default="current",
        help=f"the name of this linker's rows and ledger "
        f"({BASELINE!r} is the one before issue 61, kept for comparison)",
    )
    parser.add_argument(
        "--check",
        metavar="MODEL",
        help="read the links the text leaves open with this model, as "
        "linking=checked does (e.g. embedded:qwen2.5-coder-1.5b); answers replay from the ledger",
    )
    parser.add_argument(
        "--no-abstain",
        action="store_true",
        help="keep every link the rules and the reader let stand (the linker before abstain.py)",
    )
    args = parser.parse_args()
    command = "python -m graphwright.bench.link_mentions " + " ".join(sys.argv[1:])
    reader = None
    if args.check:
        reader = ReplayLLM(
            make_llm(args.check, cache=False),
            LEDGER / f"link-mentions--answers-{slug(args.check).replace(':', '_')}.jsonl",
        )
    abstention = None if args.no_abstain else shipped_abstention()
    outcomes, usage, reasons = asyncio.run(run(args.split, reader, abstention))
    LEDGER.mkdir(parents=True, exist_ok=True)
    saved = {
        "run": {
            "linker": args.linker,
            "split": args.split,
            "commit": commit(),
            "rates": rates(outcomes),
            "check": args.check,
            "usage": usage.model_dump(),
        },
        "mentions": [{k: v for k, v in vars(o).items() if k != "support"} for o in outcomes],
        "readings": reasons,
    }
    path: Path = LEDGER / f"link-mentions--{args.linker}-{args.split}.json"
    path.write_text(json.dumps(saved, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    section = f"link-mentions-{args.linker}-{args.split}"
    write_section(BENCH_MD, section, table(args.split, outcomes, command, args.linker))
    print(f"wrote the {section} table to {BENCH_MD} and {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
