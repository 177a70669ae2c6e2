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

    python scripts/bench_link_mentions.py --split dev
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import yaml
from bench_eval import BENCH_MD, header
from bench_ledger import LEDGER, ROOT, commit

from graphwright.eval.benchmarks_md import write_section
from graphwright.kb import open_kb
from graphwright.kb.namespaces import is_unlinked, parse_wikidata_id
from graphwright.linking import LinkJudge
from graphwright.linking.resolve import Drop, Resolver
from graphwright.model import Document
from graphwright.systems.facts.kb_names import KBNames

MENTIONS = ROOT / "examples" / "linking" / "mentions.yaml"  # the dev and test halves
HELDOUT = {"heldout": ROOT / "examples" / "linking" / "mentions-heldout.yaml",  # written after the test half was read
           "heldout2": ROOT / "examples" / "linking" / "mentions-heldout2.yaml"}  # and after the first held-out half
BASELINE = "today"  # the linker as it was when the benchmark was written, before issue 61 changed it


@dataclass
class Outcome:
    text: str
    kind: str
    surface: str
    gold: str | None
    linked: str | None  # the QID linked, None: minted or dropped
    note: str = ""

    @property
    def wrong(self) -> bool:
        return self.linked is not None and self.linked != self.gold


def mention_sentence(document: Document, surface: str) -> str:
    """The sentence of the first whole-word occurrence of ``surface`` (the file's convention)."""
    match = re.search(rf"(?<!\w){re.escape(surface)}(?!\w)", document.text)
    if match is None:
        raise ValueError(f"{surface!r} is not a whole word of its text")
    start = document.text.rfind(". ", 0, match.start())
    end = document.text.find(". ", match.end())
    return document.text[start + 2 if start >= 0 else 0:end + 1 if end >= 0 else len(document.text)].strip()


def link(kb, judge: LinkJudge, names: KBNames, text_id: str, text: str, surface: str) -> str | None:
    document = Document(id=text_id, text=text)
    resolver = Resolver(judge, document)
    try:
        outcome = resolver.link_or_mint(surface, names.record(surface), None, "value", mention_sentence(document, surface))
    except Drop:
        return None
    term = outcome.terms[0]
    return None if is_unlinked(term.value) else parse_wikidata_id(term.value)


def run(split: str) -> list[Outcome]:
    kb = open_kb("default")
    judge, names = LinkJudge(kb), KBNames(kb)
    path = HELDOUT.get(split, MENTIONS)
    texts = [t for t in yaml.safe_load(path.read_text(encoding="utf-8"))["texts"] if t["split"] == split]
    outcomes = []
    for t in texts:
        text = t["text"].strip()
        for m in t["mentions"]:
            outcomes.append(Outcome(t["id"], t["kind"], m["surface"], m.get("kb"),
                                    link(kb, judge, names, t["id"], text, m["surface"]), m.get("note", "")))
    return outcomes


def rates(outcomes: list[Outcome]) -> dict:
    links = [o for o in outcomes if o.linked]
    nil = [o for o in outcomes if o.gold is None]
    entity = [o for o in outcomes if o.gold is not None]
    return {"mentions": len(outcomes), "links": len(links), "wrong": sum(o.wrong for o in links),
            "nil": len(nil), "nil_right": sum(o.linked is None for o in nil),
            "entity": len(entity), "entity_right": sum(o.linked == o.gold for o in entity)}


def table(split: str, outcomes: list[Outcome], command: str, linker: str) -> str:
    lines = header(f"Linking users' kind of text, mention by mention: the {split} half of examples/linking "
                   f"({len(outcomes)} mentions)", None, command)
    lines += [f"- linker: {linker}; scored at {commit()}", "",
              "| kind | mentions | links | wrong links | wrong-link rate | NIL accuracy | linking recall |",
              "|---|---|---|---|---|---|---|"]
    kinds = sorted(Counter(o.kind for o in outcomes))
    for kind in [*kinds, "all"]:
        r = rates([o for o in outcomes if kind in ("all", o.kind)])
        lines.append(f"| {kind} | {r['mentions']} | {r['links']} | {r['wrong']} | "
                     f"{r['wrong'] / max(1, r['links']):.3f} | {r['nil_right']}/{r['nil']} "
                     f"({r['nil_right'] / max(1, r['nil']):.3f}) | {r['entity_right']}/{r['entity']} "
                     f"({r['entity_right'] / max(1, r['entity']):.3f}) |")
    wrong = [o for o in outcomes if o.wrong]
    lines += ["", "Wrong links: " + ("; ".join(f"{o.text} \"{o.surface}\" -> {o.linked} (gold {o.gold or 'none'})"
                                              for o in wrong) or "none")]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=("dev", "test", *HELDOUT), default="dev",
                        help="heldout, heldout2: halves written later, each after the one before was read")
    parser.add_argument("--linker", default="current", help=f"the name of this linker's rows and ledger "
                        f"({BASELINE!r} is the one before issue 61, kept for comparison)")
    args = parser.parse_args()
    command = "python scripts/bench_link_mentions.py " + " ".join(sys.argv[1:])
    outcomes = run(args.split)
    LEDGER.mkdir(parents=True, exist_ok=True)
    saved = {"run": {"linker": args.linker, "split": args.split, "commit": commit(), "rates": rates(outcomes)},
             "mentions": [vars(o) for o in outcomes]}
    path: Path = LEDGER / f"link-mentions--{args.linker}-{args.split}.json"
    path.write_text(json.dumps(saved, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    section = f"link-mentions-{args.linker}-{args.split}"
    write_section(BENCH_MD, section, table(args.split, outcomes, command, args.linker))
    print(f"wrote the {section} table to {BENCH_MD} and {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
