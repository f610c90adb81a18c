"""Small digest files for tests, written in the real formats (see seeds/ for full ones)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

SEEDS = Path(__file__).resolve().parent.parent / "seeds"


@dataclass(frozen=True)
class Entry:
    """One HuggingFace list entry."""

    arxiv_id: str
    title: str
    abstract: str = "We introduce a method. It improves accuracy by 3.2% over the baseline."
    authors: str = "Ada Lovelace,Alan Turing"
    chinese: str = "我们提出了一种方法。"  # the Chinese abstract; "" for none


def huggingface_digest(day: str, entries: list[Entry]) -> str:
    lines = [
        f"HuggingFace Papers {day}",
        "",
        "数据来源：HuggingFace Papers",
        "",
        "Latest Papers",
        "",
    ]
    for number, entry in enumerate(entries, 1):
        lines += [
            f"{number}. {entry.title}",
            "",
            f"Abstract:{entry.abstract}",
            "",
            *(["中文摘要", "", f"摘要：{entry.chinese}", ""] if entry.chinese else []),
            "LLM Analysis",
            "",
            "Q: 这篇论文试图解决什么问题？A: 提高准确率。",
            "",
            f"Authors: {entry.authors}",
            "",
            "Categories:",
            "",
            f"PDF URL: https://arxiv.org/pdf/{entry.arxiv_id}.pdf",
            "",
            f"Arxiv URL: https://arxiv.org/abs/{entry.arxiv_id}",
            "",
            f"Arxiv ID: {entry.arxiv_id}",
            "",
            f"CoolPaper URL: https://papers.cool/arxiv/{entry.arxiv_id}",
            "",
            f"Published: {day}T02:51:54.623Z",
            "",
            f"Updated: {day}T02:51:54.623Z",
            "",
        ]
    lines += [f"HuggingFace Papers {day}", "", "Latest Papers", ""]
    lines += [f"{number}. {entry.title}" for number, entry in enumerate(entries, 1)]
    return "\n".join(lines) + "\n"


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path
