"""`/claims compare <name>`: one message grouping, per paper, the claims that report a
benchmark, baseline or model, with their addresses, numbers and setting words."""

from __future__ import annotations

from bot.blocks import (
    Block,
    Message,
    _finish,
    clip_escaped,
    context,
    esc,
    header,
    section,
)
from storage.compare import MAX_PAPERS, MAX_PER_PAPER, Comparison, Related, Report

QUOTE_CHARS = 220


def _line(found: Report) -> str:
    hit = found.hit
    where = f"`{esc(hit.address)}`" if hit.address else f"claim {hit.number}"
    facts = []
    if found.numbers:
        facts.append("*" + clip_escaped(", ".join(found.numbers), 200) + "*")
    if found.setting:
        facts.append("_" + clip_escaped(", ".join(found.setting), 200) + "_")
    text = hit.quote_en if hit.source != "review" or not hit.text_zh else hit.text_zh
    quote = clip_escaped(text, QUOTE_CHARS)
    return f"• {where} {' · '.join(facts)}\n    {quote}"


def comparison(found: Comparison) -> Message:
    name = clip_escaped(found.name, 60)
    if not found.papers:
        text = f"No claim reports “{name}”."
        if found.nearest:
            nearest = ", ".join(f"`{clip_escaped(n, 60)}`" for n in found.nearest)
            text += f" The nearest names the claims report: {nearest}."
        else:
            text += " Try the name as papers write it, like `/claims compare AIME24`."
        return _finish(text, [section(text)])
    written = " = ".join(clip_escaped(s, 60) for s in found.spellings[:6])
    papers = len(found.papers)
    summary = (
        f"{found.claims} claim{'s' if found.claims != 1 else ''} in {papers} "
        f"paper{'s' if papers != 1 else ''} · written {written} in the claims"
    )
    blocks: list[Block] = [header(f"Who reports {found.name}"), context(summary)]
    for ref, reports in found.papers[:MAX_PAPERS]:
        lines = [f"*{clip_escaped(ref.label, 150)}*"]
        lines += [_line(r) for r in reports[:MAX_PER_PAPER]]
        if len(reports) > MAX_PER_PAPER:
            lines.append(f"_…and {len(reports) - MAX_PER_PAPER} more of its claims_")
        blocks.append(section("\n".join(lines)))
    if papers > MAX_PAPERS:
        blocks.append(context(f"…and {papers - MAX_PAPERS} more papers."))
    return _finish(f"Who reports {found.name}: {summary}", blocks)


def related(found: Related | None) -> Message:
    """The claims of other papers that report what a claim reports, each with why."""
    if found is None:
        return _finish(
            "That claim is no longer in the store.",
            [section("That claim is no longer in the store.")],
        )
    claim = found.claim
    name = f"`{esc(claim.address)}`" if claim.address else f"claim {claim.number}"
    if not found.related:
        text = f"No other paper's claim reports what {name} reports."
        return _finish(text, [section(text)])
    blocks: list[Block] = [context(f"Claims of other papers related to {name}")]
    for report, why in found.related:
        reason = f"_{clip_escaped(why, 80)}_"
        paper = clip_escaped(report.hit.paper.label, 150)
        blocks.append(section(f"*{paper}* · {reason}\n{_line(report)}"))
    return _finish(f"Claims related to {claim.address or claim.number}", blocks)
