"""``facts``: every fact the text states, mapped onto the KB where a property fits and kept where none does.

1. One call lists the passage's facts as [subject, relation, object] in the text's words, with the
   relation table's phrases where they fit (extract prompt); the facts sentences state in passing are
   read from the text without the model (passing.py), and the list is tidied (listed.py).
2. Each argument is placed in the text (arguments.py): a short name grows to the document's full name,
   a demonym names its country; a fact whose argument the text does not hold is dropped and counted.
   Names get a coarse type from the KB, their own words or the document's relations (types.py).
3. Each relation is mapped (mapping.py): by the table, by a KB property's label or alias, or, with
   ``map_with_model``, by one call that chooses among retrieved properties for all the rest at once. A
   phrase no property fits is kept under its own relation (``gwr:<phrase>``, drawn dashed). With the
   user's schema (``schema_file``) the prompt lists its relations and facts map onto them instead
   (schema_mode.py).
4. Names are proposed to the KB by name; open-world linking then keeps the links the KB supports and
   mints the others, and values become typed literals of the property's datatype.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Iterable
from contextlib import nullcontext
from dataclasses import dataclass, replace

from pydantic import BaseModel, Field

from graphwright.agents.call import ask_for
from graphwright.agents.prompts import load_prompt
from graphwright.errors import LLMError, ModelOutputError
from graphwright.kb.namespaces import WDT
from graphwright.kb.protocol import KnowledgeBase
from graphwright.linking.literals import XSD, TypedValue, name_term
from graphwright.linking.names import is_function_word, points_back
from graphwright.llm.base import LLM
from graphwright.llm.streaming import stopping
from graphwright.llm.wrappers import MeteredLLM
from graphwright.model import Document, Entity, ExtractionResult, Mention, Provenance, Span, Term, TraceStep, Triple
from graphwright.model.schema import load_schema, phrase_relation_iri
from graphwright.systems.facts.arguments import Argument, Grounder, coordinated, covered
from graphwright.systems.facts.config import FactsConfig
from graphwright.systems.facts.demonstrations import Demonstrations
from graphwright.systems.facts.evidence import across_clauses, telling_sentence, without_copies
from graphwright.systems.facts.kb_names import KBNames
from graphwright.systems.facts.listed import (
    its_officer,
    most_specific_places,
    name_out_of_relation,
    office,
    organisations,
    takes_classes,
    without_contradicted_kinship,
)
from graphwright.systems.facts.mapping import Mapped, PropertyMapper, Question, ask_model
from graphwright.systems.facts.passing import PassingFacts
from graphwright.systems.facts.relations import (
    EVENTS,
    TITLES,
    Mapping,
    ObjectKind,
    normalize_phrase,
    phrasings,
    prompt_lines,
    spaced,
    table_entry,
)
from graphwright.systems.facts.schema_mode import SchemaRelations, coarse_types
from graphwright.systems.facts.types import infer_types
from graphwright.systems.open_triples import holds_a_count, names_no_relation

PROMPT = load_prompt("graphwright.systems.facts", "extract")
SCHEMA_PROMPT = load_prompt("graphwright.systems.facts", "extract_schema")
GLEAN_PROMPT = load_prompt("graphwright.systems.facts", "glean")
TUNED_PROMPT = load_prompt("graphwright.systems.facts", "extract_tuned")  # what the adapter was trained on


class FactsAnswer(BaseModel):
    triples: list[tuple[str, str, str]] = Field(default_factory=list, description="[subject, relation, object] triples")


@dataclass(frozen=True)
class OpenFact:
    subject: Argument
    relation: str
    object: Argument
    types: tuple[str | None, str | None]  # the inferred name types of subject and object
    sentence: Span | None = None  # the sentence that states it, where known (the facts read in passing)

    @property
    def key(self) -> tuple:
        """Facts with one key map alike: the phrase, the object's kind and the names' types."""
        return normalize_phrase(self.relation), self.object.kind, self.types


class FactsSystem:
    def __init__(self, llm: LLM, kb: KnowledgeBase | None, config: FactsConfig, name: str = "facts"):
        self.name, self.llm, self.kb, self.config = name, llm, kb, config
        self.mapper = PropertyMapper(kb, config.candidates)
        self.names = KBNames(kb)  # what the KB says of a name, asked once
        self.schema = SchemaRelations(load_schema(config.schema_file), kb) if config.schema_file else None
        self.demonstrations = (
            Demonstrations.from_file(
                config.pool_file,
                self.schema.schema if self.schema else None,
                config.demonstrations,
                config.pool_retriever,
            )
            if config.pool_file
            else None
        )
        if self.schema and self.demonstrations:
            self.schema.shown_kinds = self.demonstrations.object_kinds()
        # the adapter was trained on open facts, without a schema or examples; a model that lacks it gets the full prompt
        self.adapter = (
            config.adapter if not self.schema and not self.demonstrations and config.adapter in llm.adapters else None
        )
        self.prompt = SCHEMA_PROMPT if self.schema else TUNED_PROMPT if self.adapter else PROMPT
        self.max_triples = config.max_triples or (80 if self.adapter else 24)
        self.max_tokens = config.max_tokens or (1600 if self.adapter else 640)
        model = f"{llm.name}+{llm.adapters[self.adapter]}" if self.adapter else llm.name
        self.provenance = Provenance(
            system=name, agent="extract", model=model, prompt_version=f"{self.prompt.id}@{self.prompt.sha}"
        )

    async def run(self, document: Document) -> ExtractionResult:
        started = time.perf_counter()
        meter = MeteredLLM(self.llm, budget=self.config.token_budget)
        result = ExtractionResult(document_id=document.id, system=self.name)
        try:
            triples = await self._extract(meter, document, result)
            if triples:
                result.triples, result.entities = await self._map(meter, document, triples, result)
        except LLMError as exc:  # backend down, budget spent: the document fails with its reason
            return ExtractionResult.from_error(
                document.id,
                self.name,
                exc,
                trace=result.trace,
                usage=meter.usage.model_copy(update={"seconds": time.perf_counter() - started}),
            )
        result.usage = meter.usage.model_copy(update={"seconds": time.perf_counter() - started})
        return result

    async def _extract(self, llm: LLM, document: Document, result: ExtractionResult) -> list[OpenFact]:
        listed = await self._listed(llm, document, result)
        if self.config.in_passing:  # what the sentences say on the way, read without the model
            passing = PassingFacts(
                document, self.names, [n for t in listed for n in (t[0], t[2])], organisations(listed)
            ).facts()
            result.extra["in_passing"] = len(passing)
            listed = [*without_contradicted_kinship(listed, passing), *passing]
        one_name = self._is_one_name
        if self.demonstrations and self.demonstrations.chains_places:  # "Faversham, Kent, England": one name
            one_name = lambda words: words.strip() in document.text or self._is_one_name(words)  # noqa: E731
        raw = [
            (h, office(relation, t), t, sentence)
            for head, relation, tail, sentence in listed
            for head, relation, tail in name_out_of_relation(head, relation, tail)
            for h in coordinated(head, one_name)
            for t in coordinated(tail, one_name, nouns=takes_classes(relation))
        ]
        grounder = Grounder(
            document,
            [name for t in raw for name in (t[0], t[2])],
            self.config.max_argument_words,
            written_forms=self.demonstrations is not None,
        )
        grounded: list[tuple[Argument, str, Argument, Span | None]] = []
        dropped: Counter[str] = Counter()
        firsts: dict[tuple[str, str, str], Span | None] = {}  # a model in a loop repeats itself
        for head, relation, tail, sentence in raw:
            firsts.setdefault((head, relation, tail), sentence)
        for (head, relation, tail), sentence in firsts.items():
            relation = " ".join(relation.split())
            subject, obj = (self._as_examples_spell(a, document.text) for a in grounder.pair(head, tail, sentence))
            reason = self._reject(subject, relation, obj)
            if reason:
                result.warnings.append(f"dropped [{head}, {relation}, {tail}]: {reason}")
                dropped[_kind_of(reason)] += 1
                continue
            assert isinstance(subject, Argument) and isinstance(obj, Argument)  # else _reject gives the reason
            grounded.append((subject, relation, obj, sentence))
        grounded = most_specific_places(grounded, document.text, result)
        result.extra["dropped"] = dict(dropped)
        grounded, copies = without_copies(grounded, document)
        for warning in copies:
            _drop(result, warning, "copied")
        grounded, apart = across_clauses(grounded, document)
        for warning in apart:
            _drop(result, warning, "across clauses")
        types = infer_types(
            ((s.lookup, self._allows(r, o), o.lookup if o.kind == "item" else None) for s, r, o, _ in grounded),
            self.names.type_of,
            document.text,
        )
        return [
            OpenFact(s, r, o, (types.get(s.lookup), types.get(o.lookup) if o.kind == "item" else None), sentence)
            for s, r, o, sentence in its_officer(grounded, types, document.text)
        ]

    async def _listed(
        self, llm: LLM, document: Document, result: ExtractionResult
    ) -> list[tuple[str, str, str, Span | None]]:
        """The model's triples (no sentence: the model is not asked which states each); with ``glean``, a
        second turn asks for the facts the first left out."""
        relations = self.schema.prompt_lines() if self.schema else "" if self.adapter else prompt_lines()
        examples = self.demonstrations.render(document.text) if self.demonstrations else ""
        system, user = self.prompt.render(relations=relations, examples=examples, text=document.text)
        messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
        triples = await self._ask_triples(llm, messages, result, step=1, node="extract")
        if self.config.glean and triples is not None:
            messages += [
                {"role": "assistant", "content": result.trace[-1].output or ""},
                {"role": "user", "content": GLEAN_PROMPT.render()[1]},
            ]
            triples += await self._ask_triples(llm, messages, result, step=2, node="glean") or []
        return [(*triple, None) for triple in triples or []]

    async def _ask_triples(
        self, llm: LLM, messages: list[dict], result: ExtractionResult, *, step: int, node: str
    ) -> list[tuple[str, str, str]] | None:
        schema = FactsAnswer.model_json_schema()
        schema["properties"]["triples"]["maxItems"] = self.max_triples  # a model in a loop stops there
        if self.adapter:  # the tuned model, trained on windows without facts too, may close the list at once
            schema["properties"]["triples"]["minItems"] = 1
        try:
            # the tuned model, early in its training, could repeat a few facts until its budget was spent: its
            # answer ends at the third time it writes one fact, and the complete part before is kept
            with stopping(repeats_a_fact) if self.adapter else nullcontext():
                reply = await ask_for(
                    llm,
                    messages,
                    FactsAnswer,
                    schema=schema,
                    max_retries=self.config.parse_retries,
                    max_tokens=self.max_tokens,
                    salvage_cut_off=True,
                    adapter=self.adapter,
                )
        except ModelOutputError as exc:
            result.trace.append(TraceStep(step=step, node=node, error=str(exc)))
            result.warnings.append(f"no valid {node} answer ({exc})")
            return None
        result.trace.append(TraceStep(step=step, node=node, output=reply.text))
        return list(reply.parsed.triples[: self.max_triples])

    def _allows(self, relation: str, obj: Argument) -> tuple[frozenset[str] | None, frozenset[str] | None] | None:
        """The types a fact's relation expects of its names: the schema relation's it names, else the table's."""
        named = self.schema.named(relation, obj.kind) if self.schema else None
        if named:
            return coarse_types(named.head), coarse_types(named.tail) if obj.kind == "item" else None
        entry = table_entry(relation, obj.kind)
        return entry.allows if entry and obj.kind == "item" else None

    def _reject(self, subject: Argument | str, relation: str, obj: Argument | str) -> str | None:
        if isinstance(subject, str):  # why the text does not state it
            return subject
        if isinstance(obj, str):
            return obj
        if not relation:
            return "an empty relation"
        if len(relation.split()) > self.config.max_relation_words:
            return "the relation is a sentence"
        if names_no_relation(relation):
            return "the relation names none"
        if subject.kind != "item":
            return f"a {subject.kind} is no subject"
        for argument in (subject, obj):
            if argument.kind == "item" and is_function_word(argument.words):  # "opened its terminal on 4 June"
                return f"{argument.words!r} is a function word, not a name"
            if argument.kind == "item" and points_back(argument.words):  # "his grandfather"
                return f"{argument.words!r} points back at a name, it is none"
        if subject.lookup.casefold() == obj.lookup.casefold():
            return "subject and object are the same"
        if obj.words.casefold() in relation.casefold():
            return "the relation holds the object"
        if obj.kind == "item" and holds_a_count(relation) and table_entry(relation, obj.kind) is None:
            return "the relation holds its own object, a count"  # "runs three vessels | Oban and Mull"
        return None

    async def _map(
        self, llm: LLM, document: Document, facts: list[OpenFact], result: ExtractionResult
    ) -> tuple[list[Triple], list[Entity]]:
        mapped: dict[tuple, Mapped] = {}
        questions: dict[tuple, Question] = {}
        facts = [self._year_as_number(fact) for fact in facts]
        for fact in facts:
            key = fact.key
            if key in mapped or key in questions:
                continue
            direct = self.mapper.direct(fact.relation, fact.object.kind, fact.types)
            if self.schema:
                mapped[key] = self.schema.map(fact.relation, fact.object.kind, fact.types, direct) or self._outside
                continue
            if direct:
                mapped[key] = direct
                continue
            question = self.mapper.question(
                fact.relation, fact.object.kind, fact.types, (fact.subject.words, fact.relation, fact.object.words)
            )
            if question and self.config.map_with_model:
                questions[key] = question
            else:
                mapped[key] = Mapped(None, "minted")
        if questions:
            mapped.update(await self._ask(llm, questions, result))
        result.extra["mapping"] = dict(Counter(m.via for m in mapped.values()))
        return self._graph(document, facts, mapped, result)

    def _year_as_number(self, fact: OpenFact) -> OpenFact:
        """A bare four-digit number is read as a year; where the relation takes a number and no date ("4150
        members", "employs 2400 people"), it is that number."""
        obj = fact.object
        if obj.kind != "date":
            return fact
        assert obj.value is not None  # a date argument carries its typed value (Grounder._value)
        if obj.value.datatype != XSD + "gYear" or not obj.words.strip().isdigit():
            return fact
        if self._maps(fact.relation, "date", fact.types) or not self._maps(fact.relation, "number", fact.types):
            return fact
        number = TypedValue(str(int(obj.words)), XSD + "decimal")
        return replace(fact, object=replace(obj, kind="number", value=number))

    def _maps(self, relation: str, kind: ObjectKind, types: tuple[str | None, str | None]) -> bool:
        direct = self.mapper.direct(relation, kind, types)
        if self.schema:
            return self.schema.map(relation, kind, types, direct) is not None
        return direct is not None and direct.mapping is not None

    @property
    def _outside(self) -> Mapped:
        """What becomes of a fact no schema relation holds."""
        return Mapped(None, "outside schema" if self.config.outside_schema == "drop" else "minted")

    async def _ask(self, llm: LLM, questions: dict[tuple, Question], result: ExtractionResult) -> dict[tuple, Mapped]:
        try:
            answers, text = await ask_model(llm, list(questions.values()), retries=self.config.parse_retries)
        except ModelOutputError as exc:  # the facts stay, under their own phrases
            result.trace.append(TraceStep(step=2, node="map", error=str(exc)))
            result.warnings.append(f"no valid mapping answer ({exc}); the relations keep their phrases")
            return {key: Mapped(None, "minted") for key in questions}
        result.trace.append(TraceStep(step=2, node="map", output=text))
        return dict(zip(questions, answers))

    def _graph(
        self, document: Document, facts: list[OpenFact], mapped: dict[tuple, Mapped], result: ExtractionResult
    ) -> tuple[list[Triple], list[Entity]]:
        base = self.provenance
        triples: dict[tuple[str, str, str], Triple] = {}
        entities: dict[str, Entity] = {}
        proposals: dict[str, Term | None] = {}  # name -> the KB entity proposed for it
        for fact in facts:
            choice = mapped[fact.key]
            if choice.via == "outside schema":
                continue
            subject, obj = fact.subject, fact.object
            if choice.via == "misfit":  # the table's relation, which the names' types cannot hold either way round:
                # "Maren Solberg | founded in | Stavanger" is the company's founding place, given to its founder
                _drop(
                    result,
                    f"dropped [{subject.words}, {fact.relation}, {obj.words}]: its names are not of the "
                    f"types {fact.relation!r} relates",
                    "type misfit",
                )
                continue
            title = TITLES.get(choice.mapping.property) if choice.mapping and not self.schema else None
            if title and not title.search(document.text):
                _drop(
                    result,
                    f"dropped [{subject.words}, {fact.relation}, {obj.words}]: the text names no such title",
                    "no title",
                )
                continue
            evidence = stating_sentence(document, fact)
            event = EVENTS.get(choice.mapping.property) if choice.mapping and not self.schema else None
            if event and not event.search(covered(evidence)):
                evidence = telling_sentence(document, fact.subject, fact.object, event) or evidence
            if event and not event.search(covered(evidence)):
                _drop(
                    result,
                    f"dropped [{subject.words}, {fact.relation}, {obj.words}]: its sentence tells of no birth or death",
                    "no event",
                )
                continue
            if (
                choice.mapping
                and choice.mapping.swapped
                and obj.kind == "item"
                and not states(covered(evidence), fact, self._phrasings(choice.mapping.property))
            ):
                # read the other way round ("founded" is "founded by"; a person is no company's chief executive),
                # it stands only where a sentence says it: a small model's "Maren Solberg founded University of
                # Bergen", cited by "She studied physics at the University of Bergen", is a slip, not a fact
                _drop(
                    result,
                    f"dropped [{subject.words}, {fact.relation}, {obj.words}]: turned round, and no sentence states it",
                    "turned round",
                )
                continue
            if choice.mapping and choice.mapping.swapped:
                if obj.kind != "item":
                    continue
                subject, obj = obj, subject
            predicate = self._predicate(fact.relation, choice)
            if (
                not self.schema
                and predicate.value == WDT + "P463"
                and obj.kind == "item"
                and self.names.is_party(obj.lookup)
            ):
                predicate = self._predicate(fact.relation, Mapped(Mapping("P102"), choice.via))  # party membership
            as_written = (
                self.schema is not None
                and choice.mapping is not None
                and self.schema.is_string(choice.mapping.property)
            )  # a schema relation whose object is a plain string
            terms = [
                self._entity(subject, proposals),
                Term.literal(obj.words, surface=obj.words) if as_written else self._value(obj, proposals),
            ]
            provenance = base.model_copy(update={"evidence": evidence})
            triple = Triple(subject=terms[0], predicate=predicate, object=terms[1], provenance=provenance)
            triples.setdefault(triple.key(), triple)
            for term, argument in zip(terms, (subject, obj)):
                if term.kind == "iri" and term.value not in entities:
                    entities[term.value] = Entity(
                        iri=term.value,
                        label=term.label,
                        mentions=[Mention(surface=argument.span.text, span=argument.span)],
                    )
        return list(triples.values()), list(entities.values())

    def _phrasings(self, property_id: str) -> list[str]:
        """How a sentence may word a fact of this property: the table's phrases and the KB's label and aliases
        (a schema relation: its name as words)."""
        if self.schema:
            return [spaced(property_id)]
        record = self.kb.get(property_id) if self.kb is not None else None
        return [*phrasings(property_id), *([record.label, *record.aliases] if record else [])]

    def _predicate(self, relation: str, choice: Mapped) -> Term:
        if choice.mapping is None:
            phrase = normalize_phrase(relation)
            return Term.iri(phrase_relation_iri(phrase), surface=relation, label=phrase)
        if self.schema:
            name = choice.mapping.property
            return Term.iri(self.schema.schema.relation_iri(name), surface=relation, label=name)
        record = self.kb.get(choice.mapping.property) if self.kb is not None else None
        return Term.iri(WDT + choice.mapping.property, surface=relation, label=record.label if record else None)

    def _value(self, argument: Argument, proposals: dict[str, Term | None]) -> Term:
        if argument.value is not None:
            value = argument.value
            return Term.literal(value.lexical, datatype=value.datatype, surface=argument.words, unit=value.unit)
        return self._entity(argument, proposals)

    def _entity(self, argument: Argument, proposals: dict[str, Term | None]) -> Term:
        """The KB entity the name names (open-world linking judges it), else the name's own node."""
        name = argument.lookup
        if name not in proposals:
            proposals[name] = self._propose(name)
        proposed = proposals[name]
        # a demonym's surface is the country it names: linking then judges "Denmark", not "Danish"
        return (proposed or name_term(name)).model_copy(update={"surface": name})

    def _propose(self, name: str) -> Term | None:
        record = self.names.record(name)
        return Term.iri(record.iri, label=record.label) if record else None

    def _as_examples_spell(self, argument: Argument | str, text: str) -> Argument | str:
        """A name under the spelling of the user's examples, where they write it otherwise than the text."""
        if self.demonstrations is None or isinstance(argument, str) or argument.kind != "item":
            return argument
        spelled = self.demonstrations.spelling(argument.lookup, text)
        return replace(argument, name=spelled) if spelled else argument

    def _is_one_name(self, words: str) -> bool:
        return self.names.record(words) is not None


_TRIPLE = re.compile(r'\[\s*"((?:[^"\\]|\\.)*)"\s*,\s*"((?:[^"\\]|\\.)*)"\s*,\s*"((?:[^"\\]|\\.)*)"\s*\]')


def repeats_a_fact(text: str, times: int = 3) -> bool:
    """Whether an answer so far writes one [subject, relation, object] ``times`` times: a model in a loop.
    Looked at only when a triple has just closed."""
    if "]" not in text[-4:]:  # a triple closes in the last token or two ("]", "],", "], ")
        return False
    return max(Counter(_TRIPLE.findall(text)).values(), default=0) >= times


def stating_sentence(document: Document, fact: OpenFact) -> Span:
    """The sentence that states a fact: the one the model listed it under when the object is in it, else the
    one naming both arguments, else a value's own sentence, else the sentence of the name the text gives
    later (the other was given before and is referred to there: "The Danish firm makes ocean sensors",
    "Its chief executive is Ingunn Sæther")."""
    listed = fact.sentence
    if listed is not None and listed.start <= fact.object.span.start and fact.object.span.end <= listed.end:
        return listed
    subject, obj = (document.sentence_around(a.span) for a in (fact.subject, fact.object))
    if subject == obj or fact.object.span.end == 0:
        return subject
    if fact.object.kind != "item":
        return obj
    given_later = max((fact.subject, fact.object), key=lambda argument: document.text.find(covered(argument.span)))
    return subject if given_later is fact.subject else obj


def _drop(result: ExtractionResult, warning: str, kind: str) -> None:
    result.warnings.append(warning)
    dropped = result.extra.setdefault("dropped", {})
    dropped[kind] = dropped.get(kind, 0) + 1


def states(sentence: str, fact: OpenFact, phrasings: Iterable[str] = ()) -> bool:
    """Whether a sentence states the fact itself: it holds a word of its relation or of another phrasing of
    its property ("found" of "founded" in "founder"; "father" for "parent") and names one of its arguments
    as the model wrote it (the other may be "she" or "it")."""
    folded = sentence.casefold()
    words = [
        _stem(w)[:5] for phrase in (fact.relation, *phrasings) for w in re.findall(r"[a-z]{4,}", phrase.casefold())
    ]
    named = any(covered(a.span).casefold() in folded for a in (fact.subject, fact.object))
    # a stem of three letters only where a word begins ("own" of "owner" in "owns", not in "town")
    return named and (not words or any(w in folded if len(w) > 3 else re.search(rf"\b{w}", folded) for w in words))


def _stem(word: str) -> str:
    """A word without the ending of a doer, a tense or a plural: "owner" -> "own", "founded" -> "found"."""
    stem = re.sub(r"(?:er|or|ed|ing|s)$", "", word)
    return stem if len(stem) >= 3 else word


def _kind_of(reason: str) -> str:
    """How a dropped fact is counted: an argument the text does not hold, one it refers to without
    naming it ("she", "the company"), or a malformed fact."""
    if "refers to" in reason:
        return "unresolved"
    return "unstated" if "the text" in reason else "malformed"
