"""The slash commands, in one table: the Bolt registration, the help replies, the manifest
and the shell all read it. A new command is a row here, its use case and its renderer."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SlashCommand:
    name: str  # "/paper"
    description: str  # the manifest's one line
    usage: str  # the manifest's usage hint
    help: str  # the reply to `/<name> help` (mrkdwn)
    # What only admins may run, as the first words of the text ("post"); "" is all of it.
    for_admins: tuple[str, ...] = ()

    def needs_admin(self, text: str) -> str | None:
        """The admin-only form `text` is (as the user would see it named), if it is one."""
        words = text.lower().split()
        for form in self.for_admins:
            if words[: len(form.split())] == form.split():
                return f"{self.name} {form}".strip()
        return None


def asks_help(text: str) -> bool:
    return text.strip().lower() in ("help", "-h", "--help", "?")


COMMANDS = (
    SlashCommand(
        "/paper",
        "Look a paper up",
        "<arXiv ID or link | title | name | words> [author:<name>] [-word] | review <paper>",
        "*`/paper <arXiv ID or link | title | name | words> [author:<name>] [-word]`* "
        "looks a paper up.\n"
        "• `/paper 2609.35259` or an arxiv.org / papers.cool link\n"
        "• `/paper GAPO`: a method or system name from a deep read\n"
        "• `/paper streaming video memory`: words from the title, abstract or review\n"
        '• `/paper author:"Limin Wang"` · `/paper diffusion -video`: by an author; without a '
        "word\n"
        "• `/paper review ENEAS`: the whole review (the card's *Full review* button)\n"
        "• `/paper saved`: the papers you kept with *Save* (`/paper saved bibtex`: BibTeX)\n"
        "One match shows its card; several show a list to open, 10 a page. A mistyped "
        "word gets *Did you mean* from the store's own words.\n"
        "• `/paper subscribe AUROC`: a message each day with new papers that match "
        "(`/paper subscriptions` lists and removes them)",
        for_admins=("subscribe channel",),
    ),
    SlashCommand(
        "/claims",
        "Search the claims papers make",
        "<words> [paper:<id or name>] [author:<name>] [since:YYYY-MM-DD] [until:YYYY-MM-DD]"
        " [-word] | compare <benchmark> | related <claim>",
        "*`/claims <words> [paper:<id or name>] [author:<name>] [since:YYYY-MM-DD] "
        "[until:YYYY-MM-DD] [-word]`* "
        "searches the numbered claims of deep reads (and result sentences of abstracts).\n"
        '• `/claims AUROC` · `/claims 延迟` · `/claims 0.886` · `/claims "median AUROC"`\n'
        "• `/claims AUROC paper:RLCDAlignBench since:2026-09-01`\n"
        '• `/claims AUROC -Enoki` · `/claims author:"Limin Wang"`: without a word; by an '
        "author\n"
        "• `/claims GAPO#3`: one claim by its address (paper name or arXiv ID, `#`, number)\n"
        "• `/claims compare AIME24`: per paper, the claims reporting a benchmark or model\n"
        "• `/claims related GAPO#1`: other papers' claims on the same benchmarks, or close in "
        "meaning (a hit's *Related* button)\n"
        "Every word must match; quote words to match them as a phrase. With search by "
        "meaning on, claims saying the same in other words or the other language follow, "
        "marked _similar meaning_. 10 results a page.",
    ),
    SlashCommand(
        "/digest",
        "Preview the daily summary (admins: post it now)",
        "[post]",
        "*`/digest`* previews the next daily summary of newly ingested papers.\n"
        "*`/digest post`* (admins) posts it to the paper channel now.",
        for_admins=("post",),
    ),
    SlashCommand(
        "/reingest",
        "Read the digest folder again (admins)",
        "[force]",
        "*`/reingest`* (admins) reads the digest folder again and loads new or changed files; "
        "*`/reingest force`* re-parses every file, e.g. after an upgrade of the parser. "
        "You get the counts and any errors when it is done.",
        for_admins=("",),
    ),
)
BY_NAME = {command.name: command for command in COMMANDS}
NAMES = tuple(BY_NAME)

# Help on a part of a command, beside each command's own.
HELP = {command.name: command.help for command in COMMANDS} | {
    "/paper subscribe": (
        "*`/paper subscribe <words>`* sends you a direct message each day listing the new "
        "papers that match (the same search as `/paper` and `/claims`); never the same paper "
        "twice.\n"
        "• `/paper subscribe author:wang -video`: an author's papers, without a word\n"
        "*`/paper subscriptions`* lists what you follow, with buttons to remove; "
        "*`/paper unsubscribe <words>`* removes one.\n"
        "*`/paper subscribe channel [at:HH:MM] <words>`* (admins, in a channel) posts that "
        "channel's own daily list, at its own time."
    ),
}
