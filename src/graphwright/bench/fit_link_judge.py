#!/usr/bin/env python
"""Fit the link judge's weights and threshold (src/graphwright/linking/judge.json).

Data: REBEL sample documents 100-919 (by docid; the benchmarks score the first 20, and the linking
benchmark the first 100), linked against the default KB, the KB a user has. Every gold entity
mention is a linking case: the KB's best label match for its words is the proposal (what a
system choosing the nearest label does), the other label matches the alternatives. Mentions
whose entity the KB lacks (about three in four) are the cases a closed-world linker gets wrong.

Weights: L2-regularised logistic regression on the (mention, candidate) pairs that pass the name
gate, fitted on documents 100-499. Threshold: on those documents, among the thresholds whose
wrong-link rate on mentions outside the KB stays at or below ``--max-wrong``, the one with the most
right links minus ``--wrong-cost`` times the wrong ones (a false fact about a real entity costs more
than a missing link). The curve is stored beside the weights.
Documents 500-919 are held out: their rates are printed and stored beside the weights.

    python -m graphwright.bench.fit_link_judge            # needs ../shared/data (or GRAPHWRIGHT_DATA_DIR)
"""

from __future__ import annotations

import argparse
import json
from datetime import date

import numpy as np

from graphwright.bench import ROOT
from graphwright.bench.data.gold import GoldTerm
from graphwright.bench.eval.datasets import rebel_sample
from graphwright.kb.default import default_kb
from graphwright.linking.judge import FEATURES, JudgeModel, LinkJudge
from graphwright.model import Document
from graphwright.tools.type_constraints import Role

OUT = ROOT / "src" / "graphwright" / "linking" / "judge.json"
CANDIDATES = 5  # as the resolver: the proposal and same-name alternatives


def cases(kb, judge: LinkJudge, docs) -> list[dict]:
    """One case per gold entity mention: (gold id, in KB?, [(candidate id, evidence), ...] proposal first)."""
    out, seen = [], set()
    for doc in docs:
        document = Document(id=doc.id, text=doc.text)
        for t in doc.triples:
            prop = kb.get(t.predicate.iri or "")
            sides: tuple[tuple[Role, GoldTerm], ...] = (("subject", t.subject), ("value", t.object))
            for role, term in sides:
                if not term.iri or not term.surface or (doc.id, term.surface, role, t.predicate.iri) in seen:
                    continue
                seen.add((doc.id, term.surface, role, t.predicate.iri))
                span = document.find(term.surface)
                sentence = doc.text
                if span:
                    around = document.sentence_around(span).text
                    assert around is not None  # Document.span fills in the text it covers
                    sentence = around
                hits = kb.search(term.surface, kind="entity", mode="label", k=CANDIDATES)
                pairs = [
                    (
                        h.record.id,
                        judge.evidence(
                            term.surface, h.record, document=doc.text, sentence=sentence, prop=prop, role=role
                        ),
                    )
                    for h in hits
                ]
                out.append({"surface": term.surface, "gold": term.iri, "in_kb": kb.contains(term.iri), "pairs": pairs})
    return out


def fit_logistic(x: np.ndarray, y: np.ndarray, l2: float = 1.0, steps: int = 50) -> np.ndarray:
    """Newton's method on the penalised log-likelihood (the bias is not penalised)."""
    w = np.zeros(x.shape[1])
    penalty = np.full(x.shape[1], l2)
    penalty[0] = 0.0
    for _ in range(steps):
        p = 1 / (1 + np.exp(-x @ w))
        grad = x.T @ (p - y) + penalty * w
        hess = (x * (p * (1 - p))[:, None]).T @ x + np.diag(penalty + 1e-9)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w


def decide(case: dict, w: np.ndarray, threshold: float) -> str | None:
    """The id the resolver would link (its rule: the proposal if supported, else the best supported)."""
    best = None
    for i, (cid, ev) in enumerate(case["pairs"]):
        if not ev.names_it or ev.type_fit is False:
            continue
        conf = 1 / (1 + np.exp(-ev.vector() @ w))
        if conf >= threshold:
            if i == 0:
                return cid
            if best is None or conf > best[1]:
                best = (cid, conf)
    return best[0] if best else None


def rates(cases_: list[dict], w: np.ndarray, threshold: float) -> dict:
    inside = [c for c in cases_ if c["in_kb"]]
    outside = [c for c in cases_ if not c["in_kb"]]
    right = sum(decide(c, w, threshold) == c["gold"] for c in inside)
    wrong_in = sum(decide(c, w, threshold) not in (None, c["gold"]) for c in inside)
    wrong_out = sum(decide(c, w, threshold) is not None for c in outside)
    return {
        "mentions_in_kb": len(inside),
        "mentions_outside_kb": len(outside),
        "right_link_rate": round(right / max(1, len(inside)), 4),
        "wrong_link_rate_in_kb": round(wrong_in / max(1, len(inside)), 4),
        "wrong_link_rate_outside_kb": round(wrong_out / max(1, len(outside)), 4),
    }


def closed_world(cases_: list[dict]) -> dict:
    """The old behaviour for comparison: the best label match is always linked."""
    inside = [c for c in cases_ if c["in_kb"]]
    outside = [c for c in cases_ if not c["in_kb"]]
    top = lambda c: c["pairs"][0][0] if c["pairs"] else None  # noqa: E731
    return {
        "right_link_rate": round(sum(top(c) == c["gold"] for c in inside) / max(1, len(inside)), 4),
        "wrong_link_rate_outside_kb": round(sum(top(c) is not None for c in outside) / max(1, len(outside)), 4),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--max-wrong", type=float, default=0.03, help="wrong-link rate allowed outside the KB (fit docs)")
    ap.add_argument("--wrong-cost", type=float, default=2.0, help="how many right links one wrong link costs")
    ap.add_argument("--fit", default="100:500", help="document slice to fit on")
    ap.add_argument("--held-out", default="500:", help="document slice to report on")
    args = ap.parse_args()
    docs = rebel_sample().documents
    kb = default_kb()
    judge = LinkJudge(kb, model=JudgeModel((0.0,) * len(FEATURES), 0.5))  # evidence only: no model yet
    part = lambda s: docs[slice(*[int(x) if x else None for x in s.split(":")])]  # noqa: E731
    fit_cases, held_cases = cases(kb, judge, part(args.fit)), cases(kb, judge, part(args.held_out))
    pairs = [(ev.vector(), float(cid == c["gold"])) for c in fit_cases for cid, ev in c["pairs"] if ev.names_it]
    x, y = np.array([p[0] for p in pairs]), np.array([p[1] for p in pairs])
    w = fit_logistic(x, y)
    grid = [float(t) for t in sorted({0.0, *np.round(np.linspace(0.05, 0.95, 19), 2)})]
    curve = {t: rates(fit_cases, w, t) for t in grid}

    def utility(r: dict) -> float:
        wrong = (
            r["wrong_link_rate_in_kb"] * r["mentions_in_kb"]
            + r["wrong_link_rate_outside_kb"] * r["mentions_outside_kb"]
        )
        return r["right_link_rate"] * r["mentions_in_kb"] - args.wrong_cost * wrong

    allowed = [t for t in grid if curve[t]["wrong_link_rate_outside_kb"] <= args.max_wrong] or [grid[-1]]
    threshold = max(allowed, key=lambda t: (utility(curve[t]), -t))
    result = {
        "features": list(FEATURES),
        "weights": [round(float(v), 4) for v in w],
        "threshold": threshold,
        "note": f"fitted {date.today().isoformat()} by `python -m graphwright.bench.fit_link_judge` on rebel-sample documents "
        f"{args.fit} ({len(pairs)} name-matched pairs, {int(y.sum())} right) against the default KB; "
        f"threshold: most right links minus {args.wrong_cost} x wrong links, with a wrong-link rate "
        f"outside the KB <= {args.max_wrong}",
        "fit": rates(fit_cases, w, threshold),
        "held_out": rates(held_cases, w, threshold),
        "held_out_closed_world": closed_world(held_cases),
        "fit_curve": {
            str(t): {k: v for k, v in r.items() if k.endswith("rate") or "rate_" in k} for t, r in curve.items()
        },
    }
    OUT.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
