"""The three agents' system prompts (paper 002, section 4.1). The reviewer's comes from a template;
the tagger's is written by the LLM (the Metaprompter) from a worked example, the template prompt for
the GENIA biology domain, and cached per configuration; the researcher's is static."""

from __future__ import annotations

import hashlib
import json
from importlib import resources

from graphwright.agents.call import ask_text
from graphwright.agents.prompts import load_prompt
from graphwright.llm.attribution import for_agent
from graphwright.llm.base import LLM
from graphwright.model.domain import EntityDomain, load_domain
from graphwright.model.labelled import NERSample
from graphwright.papers.agenticner.examples import tagged_text
from graphwright.papers.agenticner.protocol import example_block, tag_content
from graphwright.paths import cache_dir

PACKAGE = "graphwright.papers.agenticner"
EXAMPLES_MARK = "[[EXAMPLES]]"
RESEARCH_TAGGER = (
    "- If you are unsure of a fact (what a name refers to, which type fits), ask a domain expert inside "
    "<search>...</search>; such a message has no <output>.\n"
)
DEBATE = (
    "- You may get feedback inside <feedback> from a reviewer. Address it by answering with a new <output>. "
    "If you disagree with it, explain why inside <objection>...</objection>.\n"
)
SCOPE = "Do not tag anything outside <text_to_tag> tags! Copy the text exactly; only add tags."
RESEARCH_REVIEWER = (
    "- If you are not sure about a mention, ask the researcher a factual question inside <search>...</search>; "
    "it can look things up."
)


def render_types(domain: EntityDomain) -> str:
    return "\n".join(f"- {name}: {description}" for name, description in domain.types.items())


def render_examples(examples: list[NERSample]) -> str:
    return "\n".join(example_block(s.text, tagged_text(s)) for s in examples) or "(none)"


def answer_rules(domain: EntityDomain) -> str:
    """How the tagger must answer: the contract with the alignment that reads its output."""
    return load_prompt(PACKAGE, "answer_rules").render(example_type=next(iter(domain.types)))[0]


def template_tagger_prompt(domain: EntityDomain, examples_text: str, *, research: bool, debate: bool) -> str:
    """The tagger prompt filled from the template, without an LLM (also the Metaprompter's example)."""
    system, _ = load_prompt(PACKAGE, "tagger").render(
        domain=domain.domain,
        types=render_types(domain),
        answer_rules=answer_rules(domain),
        research=(RESEARCH_TAGGER if research else "") + (DEBATE if debate else ""),
        examples=examples_text,
        text="",
    )
    return system


async def metaprompt_tagger(
    llm: LLM, domain: EntityDomain, examples: list[NERSample], *, research: bool, debate: bool
) -> tuple[str, list[str]]:
    """The LLM-written tagger prompt with the examples filled in, and warnings. Cached on disk per model,
    domain, examples and options: the paper writes it once per configuration."""
    examples_text = render_examples(examples)
    key = hashlib.sha256(
        json.dumps([llm.name, domain.model_dump(), examples_text, research, debate], sort_keys=True).encode()
    ).hexdigest()[:24]
    path = cache_dir() / "agenticner-prompts" / f"{key}.json"
    if path.is_file():  # at temperature 0 the Metaprompter would write the same again, unusable or not
        cached = json.loads(path.read_text(encoding="utf-8"))
        written, warnings = cached["prompt"], cached["warnings"]
    else:
        written, warnings = await _write_tagger_prompt(llm, domain, examples_text, research=research, debate=debate)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"prompt": written, "warnings": warnings}, ensure_ascii=False), encoding="utf-8")
    # the template has these rules; a written prompt may have dropped them (the 1.5B model's prompt for
    # conll2003 never said to tag or to answer in <output>, and the tagger copied the text untagged)
    additions = (
        ([answer_rules(domain)] if "<output>" not in written else [])
        + [SCOPE]
        + ([DEBATE.strip("- \n")] if debate and "<objection>" not in written else [])
    )
    if EXAMPLES_MARK not in written:
        written += f"\n\nExamples:\n{EXAMPLES_MARK}"
    written = written.replace(EXAMPLES_MARK, examples_text)
    return written + "\n\n" + "\n".join(additions), warnings


async def _write_tagger_prompt(
    llm: LLM, domain: EntityDomain, examples_text: str, *, research: bool, debate: bool
) -> tuple[str, list[str]]:
    """The Metaprompter's prompt, or the template when its answer is unusable (with a warning)."""
    # the paper's Metaprompter rewrites the prompt written for GENIA: its domain travels with this package
    with resources.as_file(resources.files(__package__).joinpath("metaprompter-genia.yaml")) as f:
        genia = load_domain(f)
    base = template_tagger_prompt(genia, EXAMPLES_MARK, research=True, debate=True)
    system, user = load_prompt(PACKAGE, "metaprompter").render(
        base_prompt=base, domain=domain.domain, types=render_types(domain), examples=examples_text
    )
    with for_agent("metaprompter"):
        reply = await ask_text(
            llm, [{"role": "system", "content": system}, {"role": "user", "content": user}], max_tokens=1500
        )
    written = tag_content(reply.text, "prompt") or ""
    if len(written) >= 200 and all(t in written for t in domain.types):
        return written, []
    return (
        template_tagger_prompt(domain, EXAMPLES_MARK, research=research, debate=debate),
        ["the Metaprompter's prompt was unusable (too short or missing entity types); the template prompt is used"],
    )


def reviewer_prompt(domain: EntityDomain, example: str, *, research: bool) -> str:
    system, _ = load_prompt(PACKAGE, "reviewer").render(
        domain=domain.domain,
        types=render_types(domain),
        example=example,
        research=RESEARCH_REVIEWER if research else "",
        conversation="",
    )
    return system
