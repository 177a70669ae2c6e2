"""Reports of eval runs: Markdown tables, a self-contained HTML page with SVG plots, side-by-side comparison."""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

from graphwright.bench.eval.bootstrap import RESAMPLES, difference_interval, f1_interval
from graphwright.bench.eval.metrics import CATEGORIES, Counts, counts_from_dict
from graphwright.paths import write_atomic

LABELS = {
    "triples": "Triples",
    "triples_parental": "Triples (parental)",
    "triples_related": "Triples (related)",
    "subjects": "Subjects",
    "properties": "Properties",
    "properties_parental": "Properties (parental)",
    "properties_related": "Properties (related)",
    "objects": "Objects",
    "entities": "Entities",
    "boundaries": "Argument pairs (relation ignored)",
    "mentions": "Entity mentions (exact span and type)",
    "triggers": "Trigger identification",
    "trigger_types": "Trigger classification",
    "arguments": "Argument identification",
    "argument_roles": "Argument classification",
}
COST = (
    ("llm_calls", "LLM calls"),
    ("prompt_tokens", "prompt tokens"),
    ("cached_prompt_tokens", "prompt tokens from the cache"),
    ("completion_tokens", "completion tokens"),
    ("seconds", "seconds"),
    ("prompt_seconds", "seconds reading prompts"),
    ("generation_seconds", "seconds generating"),
    ("outside_model_seconds", "seconds outside the model"),
)  # the cache and the time split: as the server reports them


def categories(agg: dict[str, Any]) -> list[str]:
    """The scored categories of a run; runs written before RE scoring existed are closed IE."""
    return agg.get("categories") or list(CATEGORIES)


def label(category: str) -> str:
    return LABELS.get(category, category)


def run_title(agg: dict[str, Any]) -> str:
    run = agg["run"]
    return f"{run['system']} on {run['dataset']} ({agg['documents']} documents, {run['model']})"


def category_table(agg: dict[str, Any], average: str = "macro") -> str:
    lines = ["| category | precision | recall | F1 |", "|---|---|---|---|"]
    for c in categories(agg):
        s = agg[average][c]
        lines.append(f"| {label(c)} | {s['precision']:.3f} | {s['recall']:.3f} | {s['f1']:.3f} |")
    return "\n".join(lines)


def markdown_report(agg: dict[str, Any]) -> str:
    run, cost = agg["run"], agg["per_document"]
    settings = ", ".join(f"{k}={v}" for k, v in sorted(run.get("settings", {}).items())) or "defaults"
    parts = [
        f"# {run_title(agg)}",
        "",
        f"- system: {run['system']} ({settings}); dataset: {run['dataset']}; KB: {run['kb']}; model: {run['model']}",
        f"- started: {run.get('started', '')}; documents: {agg['documents']}; failed: {agg['failed']} "
        f"(error rate {agg['error_rate']:.3f})",
        "- per document: " + ", ".join(f"{cost.get(k, 0):g} {label}" for k, label in COST),
        "",
        "## Macro average (each document weighs the same)",
        "",
        category_table(agg, "macro"),
        "",
        "## Micro average (summed counts)",
        "",
        category_table(agg, "micro"),
        "",
    ]
    if agg.get("per_agent"):
        parts += ["## Cost per agent (mean per document)", "", agent_table(agg["per_agent"]), ""]
    return "\n".join(parts)


AGENT_COLUMNS = (
    ("llm_calls", "calls"),
    ("prompt_tokens", "prompt tokens"),
    ("prompt_cache_hit", "from the cache"),
    ("completion_tokens", "completion tokens"),
    ("seconds", "seconds"),
    ("prompt_seconds", "reading prompts"),
    ("generation_seconds", "generating"),
)


def agent_cells(cost: dict[str, float]) -> list[str]:
    return [f"{cost.get(k, 0):.0%}" if k == "prompt_cache_hit" else f"{cost.get(k, 0):g}" for k, _ in AGENT_COLUMNS]


def agent_table(per_agent: dict[str, dict[str, float]]) -> str:
    lines = ["| agent | " + " | ".join(name for _, name in AGENT_COLUMNS) + " |", "|---|" + "---|" * len(AGENT_COLUMNS)]
    lines += [f"| {agent} | " + " | ".join(agent_cells(cost)) + " |" for agent, cost in per_agent.items()]
    return "\n".join(lines)


def comparison_rows(aggs: list[dict[str, Any]], average: str = "macro") -> list[tuple[str, list[str]]]:
    """(metric, one value per run) rows: F1 per category, P and R of the first run's headline category (triples;
    mentions for NER, triggers for EE), error rate and cost."""
    headline = categories(aggs[0])[0]
    name = "triple" if headline == "triples" else label(headline)
    rows = [
        (f"{name} {metric}", [f"{a[average][headline][metric]:.3f}" if headline in a[average] else "-" for a in aggs])
        for metric in ("precision", "recall")
    ]
    rows += [
        (f"{label(c)} F1", [f"{a[average][c]['f1']:.3f}" if c in a[average] else "-" for a in aggs])
        for c in dict.fromkeys(c for a in aggs for c in categories(a))
    ]
    rows += [
        ("error rate", [f"{a['error_rate']:.3f}" for a in aggs]),
        ("documents", [str(a["documents"]) for a in aggs]),
    ]
    rows += [(f"{label} / doc", [f"{a['per_document'].get(k, 0):g}" for a in aggs]) for k, label in COST]
    return rows


def f1_uncertainty(runs: list[list[dict[str, Any]]], category: str, reference: int | None = 0) -> list[tuple[str, str]]:
    """Per run (its scored document rows): the 95% bootstrap interval of its micro F1, and its micro F1
    minus the reference run's with the paired interval, over the documents the two share ("–" for the
    reference itself, or where there is none)."""
    counts = [{r["id"]: counts_from_dict(r["counts"])[category] for r in rows} for rows in runs]
    cells = []
    for i, mine in enumerate(counts):
        low, high = f1_interval(list(mine.values()))
        difference = "–"
        shared = [doc for doc in mine if doc in counts[reference]] if reference is not None else []
        if reference is not None and i != reference and shared:
            a, b = [mine[doc] for doc in shared], [counts[reference][doc] for doc in shared]
            d_low, d_high = difference_interval(a, b)
            d = sum(a, Counts()).f1 - sum(b, Counts()).f1
            difference = f"{d:+.3f} ({d_low:+.3f} to {d_high:+.3f})"
        cells.append((f"{low:.3f}–{high:.3f}", difference))
    return cells


def uncertainty_note(reference: str) -> str:
    """The footnote of a benchmark table with the columns of `f1_uncertainty`."""
    return (
        f"F1 95% CI: percentile bootstrap over the sentences ({RESAMPLES:,} resamples). ΔF1 vs {reference}: "
        f"F1 minus {reference}'s, with the 95% interval of that difference when both are scored on the same "
        "resampled sentences; an interval that holds 0 means these sentences cannot tell the two apart."
    )


def uncertainty_rows(runs: list[list[dict[str, Any]]], names: list[str], category: str) -> list[tuple[str, list[str]]]:
    """Rows for a comparison table: each run's micro F1 interval, and its paired difference from the first run."""
    cells = f1_uncertainty(runs, category)
    return [
        (f"{label(category)} F1 (micro) 95% CI", [c[0] for c in cells]),
        (f"{label(category)} ΔF1 (micro) vs {names[0]}, paired 95% CI", [c[1] for c in cells]),
    ]


def comparison_markdown(rows: list[tuple[str, list[str]]], names: list[str]) -> str:
    lines = ["| metric | " + " | ".join(names) + " |", "|---|" + "---|" * len(names)]
    lines += [f"| {metric} | " + " | ".join(values) + " |" for metric, values in rows]
    return "\n".join(lines)


# ---- HTML ----------------------------------------------------------------------------------------------


def html_report(agg: dict[str, Any], rows: list[dict[str, Any]]) -> str:
    """One page, no external assets: summary, P/R/F1 bars per category, tokens per document, failures."""
    e = html.escape
    failures = [r for r in rows if r["status"] != "ok"]
    fail_html = "".join(f"<li><code>{e(r['id'])}</code>: {e(r.get('reason') or '')}</li>" for r in failures)
    tables = "".join(
        f"<h2>{e(t)}</h2>{_table_html(agg, avg)}" for t, avg in (("Macro average", "macro"), ("Micro average", "micro"))
    )
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{e(run_title(agg))}</title>
<style>body{{font:14px system-ui,sans-serif;margin:2em;max-width:1000px}}table{{border-collapse:collapse}}
td,th{{border:1px solid #ccc;padding:3px 8px;text-align:right}}td:first-child,th:first-child{{text-align:left}}
svg text{{font:11px system-ui,sans-serif}}</style></head><body>
<h1>{e(run_title(agg))}</h1>
<p>KB {e(str(agg["run"]["kb"]))}; error rate {agg["error_rate"]:.3f} ({agg["failed"]} of {agg["documents"]} failed);
per document: {e(", ".join(f"{agg['per_document'].get(k, 0):g} {label}" for k, label in COST))}.</p>
<h2>Precision, recall and F1 per category (macro)</h2>{category_chart(agg)}
<h2>Tokens per document</h2>{tokens_chart(rows)}
{tables}{_agents_html(agg.get("per_agent") or {})}
<h2>Failed documents</h2><ul>{fail_html or "<li>none</li>"}</ul>
</body></html>
"""


def _agents_html(per_agent: dict[str, dict[str, float]]) -> str:
    if not per_agent:
        return ""
    e = html.escape
    head = "<tr><th>agent</th>" + "".join(f"<th>{e(name)}</th>" for _, name in AGENT_COLUMNS) + "</tr>"
    body = "".join(
        f"<tr><td>{e(agent)}</td>" + "".join(f"<td>{c}</td>" for c in agent_cells(cost)) + "</tr>"
        for agent, cost in per_agent.items()
    )
    return f"<h2>Cost per agent (mean per document)</h2><table>{head}{body}</table>"


def _table_html(agg: dict[str, Any], average: str) -> str:
    head = "<tr><th>category</th><th>precision</th><th>recall</th><th>F1</th></tr>"
    body = "".join(
        f"<tr><td>{html.escape(label(c))}</td>"
        + "".join(f"<td>{agg[average][c][m]:.3f}</td>" for m in ("precision", "recall", "f1"))
        + "</tr>"
        for c in categories(agg)
    )
    return f"<table>{head}{body}</table>"


COLOURS = {"precision": "#4e79a7", "recall": "#f28e2b", "f1": "#59a14f"}


def category_chart(agg: dict[str, Any]) -> str:
    """Grouped horizontal bars: one group per category, one bar per metric, scale 0..1."""
    bar, gap, left, width = 12, 10, 160, 420
    group = 3 * bar + gap
    shown = categories(agg)
    height = group * len(shown) + 30
    parts = []
    for i, c in enumerate(shown):
        y0 = 20 + i * group
        parts.append(f'<text x="{left - 6}" y="{y0 + 1.5 * bar + 4}" text-anchor="end">{html.escape(label(c))}</text>')
        for j, (metric, colour) in enumerate(COLOURS.items()):
            value = agg["macro"][c][metric]
            y = y0 + j * bar
            parts.append(
                f'<rect x="{left}" y="{y}" width="{value * width:.1f}" height="{bar - 1}" fill="{colour}">'
                f"<title>{metric} {value:.3f}</title></rect>"
            )
            parts.append(f'<text x="{left + value * width + 4:.1f}" y="{y + bar - 1}">{value:.2f}</text>')
    legend = "".join(
        f'<rect x="{left + 110 * k}" y="2" width="10" height="10" fill="{colour}"/>'
        f'<text x="{left + 110 * k + 14}" y="11">{metric}</text>'
        for k, (metric, colour) in enumerate(COLOURS.items())
    )
    return (
        f'<svg width="{left + width + 60}" height="{height}" font-size="11" role="img">{legend}{"".join(parts)}</svg>'
    )


def tokens_chart(rows: list[dict[str, Any]]) -> str:
    """Stacked vertical bars per document: prompt and completion tokens; failed documents in red outline."""
    if not rows:
        return "<p>no documents</p>"
    top = max(r["usage"]["prompt_tokens"] + r["usage"]["completion_tokens"] for r in rows) or 1
    step, chart_h, base = max(4, min(40, 900 // len(rows))), 200, 240
    parts = []
    for i, r in enumerate(rows):
        p, c = r["usage"]["prompt_tokens"], r["usage"]["completion_tokens"]
        hp, hc = p / top * chart_h, c / top * chart_h
        x = 50 + i * step
        outline = ' stroke="#d62728" stroke-width="2"' if r["status"] != "ok" else ""
        tip = html.escape(f"{r['id']}: {p} prompt + {c} completion tokens ({r['status']})")
        parts.append(
            f'<g><title>{tip}</title><rect x="{x}" y="{base - hp:.1f}" width="{step - 2}" height="{hp:.1f}" '
            f'fill="#4e79a7"{outline}/><rect x="{x}" y="{base - hp - hc:.1f}" width="{step - 2}" '
            f'height="{hc:.1f}" fill="#e15759"/></g>'
        )
    axis = f'<text x="2" y="{base - chart_h + 4}">{top:,}</text><text x="2" y="{base}">0</text>'
    legend = (
        '<rect x="40" y="2" width="10" height="10" fill="#4e79a7"/><text x="54" y="11">prompt</text>'
        '<rect x="110" y="2" width="10" height="10" fill="#e15759"/><text x="124" y="11">completion</text>'
    )
    return (
        f'<svg width="{60 + len(rows) * step}" height="{base + 10}" font-size="11" role="img">'
        f"{legend}{axis}{''.join(parts)}</svg>"
    )


def write_reports(out_dir: Path, agg: dict[str, Any], rows: list[dict[str, Any]]) -> tuple[Path, Path]:
    md, page = out_dir / "report.md", out_dir / "report.html"
    write_atomic(md, markdown_report(agg))
    write_atomic(page, html_report(agg, rows))
    return md, page
