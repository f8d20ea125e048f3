"""The project's text says what the code does and why, not when it changed or where a figure was measured: no file
dates itself by rounds of work (an ordinal naming a session or a round of tuning, or "since the" and an ordinal) or
names a path of the machine it was written on (under the work, root, home or temporary folders). The examples the
patterns are tried on are built from those words below, so this file names no such round or path itself.

Game words stay free: a game's first round, the third visit, the second seat's cards. The history of the work is in
git, not in the files.
"""

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PLACES = ("docs", "splendor", "tools", "tests", "README.md")
THIS = Path(__file__).resolve()

_ORDINALS = ("first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth "
             "fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth").split()
ORD = r"(?:" + "|".join(_ORDINALS) + r"|twenty-\w+|thirtieth|\d+(?:st|nd|rd|th))"
LATE = r"(?:" + "|".join(_ORDINALS[3:]) + r"|twenty-\w+|thirtieth|\d+(?:th))"  # not "first/second/third": game words
#: What an ordinal counts in a game or on the page (the third visit, in the fourth column): not a round of work.
GAME = (r"(?:rounds?|turns?|moves?|games?|players?|seats?|cards?|levels?|nobles?|tokens?|deals?|decisions?|"
        r"iterations?|positions?|steps?|columns?|rows?|slots?|times?|visits?|pages?|plies|ply|tests?|lines?|"
        r"phases?|epochs?|chunks?|generations?|places?|colou?rs?|gems?|bonus(?:es)?|items?|pairs?|words?)")

DATING = [
    ("an ordinal session", re.compile(rf"\b{ORD}\b(?:[\s-]+\w+){{0,2}}[\s-]+sessions?\b", re.I)),
    ("a numbered session", re.compile(r"\bsessions? (?:no\.? ?)?\d+\b", re.I)),
    ("a round of work", re.compile(rf"\b(?:{ORD}\s+)?rounds?\s+of\s+(?:tuning|work|screens?|screening)\b", re.I)),
    ("since/in the Nth ...", re.compile(
        rf"\b(?:since|in|after|before|until|by|of|from)\s+the\s+{LATE}\b(?!\s+(?:\w+\s+)?{GAME}\b)(?!-)", re.I)),
    ("the Nth's", re.compile(rf"\bthe\s+{LATE}'s\b", re.I)),
]
PATHS = [("a path of the machine", re.compile(r"(?<![\w.~-])/(?:work|root|home|tmp)/"))]


def tracked_text_files():
    """The project's tracked text files under PLACES (git's list; every file there when git is not at hand)."""
    try:
        out = subprocess.run(["git", "ls-files", "-z", "--", *PLACES], cwd=ROOT, capture_output=True, check=True)
        paths = [ROOT / p for p in out.stdout.decode("utf-8").split("\0") if p]
    except (OSError, subprocess.CalledProcessError):
        paths = [p for place in PLACES for p in ([ROOT / place] if (ROOT / place).is_file()
                                                  else (ROOT / place).rglob("*")) if p.is_file()]
    files = {}
    for path in paths:
        if path.resolve() == THIS or not path.is_file():
            continue
        data = path.read_bytes()
        if b"\0" in data[:4096]:
            continue
        try:
            files[path.relative_to(ROOT).as_posix()] = data.decode("utf-8")
        except UnicodeDecodeError:
            continue
    return files


def hits(files, patterns):
    """[(path:line, what, the words)] for every match of ``patterns`` in ``files``."""
    found = []
    for name, text in sorted(files.items()):
        for number, line in enumerate(text.splitlines(), 1):
            for what, pattern in patterns:
                for m in pattern.finditer(line):
                    found.append((f"{name}:{number}", what, m.group(0)))
    return found


FILES = tracked_text_files()
CODE = ("splendor/", "tools/")  # comments and docstrings being cleaned by the work on issue 45, item 2
BAD = DATING + PATHS


def test_the_files_are_found():
    assert "README.md" in FILES and "docs/DEVELOPING.md" in FILES and "splendor/ai/expert.py" in FILES
    assert not any(name.endswith((".png", ".jpg", ".whl")) for name in FILES)


def test_docs_tests_and_readme_neither_date_themselves_nor_name_a_machine_path():
    found = hits({k: v for k, v in FILES.items() if not k.startswith(CODE)}, BAD)
    assert not found, "\n".join(f"{where}: {what}: {words!r}" for where, what, words in found)


def test_the_code_neither_dates_itself_nor_names_a_machine_path():
    found = hits({k: v for k, v in FILES.items() if k.startswith(CODE)}, BAD)
    assert not found, "\n".join(f"{where}: {what}: {words!r}" for where, what, words in found)


_S = "sess" + "ion"  # a round of work, and the machine's folders, as the dated examples below use them


def _path(top, rest):
    return "/" + top + "/" + rest


@pytest.mark.parametrize("text", [
    f"the expert of the {_ORDINALS[0]} six {_S}s", f"since the {_ORDINALS[11]} {_S}", f"({_ORDINALS[16]} {_S})",
    f"see the {_ORDINALS[4]} round of tuning", f"the {_ORDINALS[15]}'s 'a few points' corrected",
    f"as in the {_ORDINALS[8]}, the tree", f"since the {_ORDINALS[11]}, the moves",
    "log " + _path("work", "logs/x.log"), "measured in " + _path("tmp", "bench"), _path("root", ".cache/x"),
    _path("home", "me/splendor"), f"{_S} 12", f"the 17th {_S}",
])
def test_the_patterns_catch_what_they_are_for(text):
    assert hits({"x": text}, BAD), text


@pytest.mark.parametrize("text", [
    "the first round of the game", "from the third visit on", "the second seat's cards", "in the fourth column",
    "the seat that plays last in the first round", "sessionStorage", "a new session of the page",
    "tmp_path / 'x.json'", "https://example.org/docs/", "the first seat's vectors, second's", "/usr/bin/chromium",
    "in the fifth game of the series", "the tenth move",
])
def test_the_patterns_leave_game_words_alone(text):
    assert not hits({"x": text}, BAD), hits({"x": text}, BAD)


#: The reference pages describe what is; what was tried, with its dates and commits, is on one history page.
HISTORY_PAGE = "docs/HISTORY.md"
DATED = [
    ("a date", re.compile(r"\b20\d\d-[01]\d-[0-3]\d\b")),
    ("a commit id", re.compile(r"\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b")),
]


def test_the_reference_docs_carry_no_dates_or_commits_and_link_the_history_page():
    reference = {k: v for k, v in FILES.items()
                 if k == "README.md" or (k.startswith("docs/") and k.endswith(".md") and k != HISTORY_PAGE)}
    assert {"docs/BOTS.md", "docs/DEVELOPING.md"} <= set(reference) and HISTORY_PAGE in FILES
    found = hits(reference, DATED)
    assert not found, "\n".join(f"{where}: {what}: {words!r}" for where, what, words in found)
    for name in ("docs/BOTS.md", "docs/DEVELOPING.md"):
        assert "](HISTORY.md" in FILES[name], name


@pytest.mark.parametrize("text", ["measured on 2026-12-02", "(commit 501ab21)", "e8d6996 the same day",
                                  "for commit 24f3e0e0c1"])
def test_the_dated_patterns_catch_dates_and_commits(text):
    assert hits({"x": text}, DATED), text


@pytest.mark.parametrize("text", ["buy 2G2:4w2u1k", "the card 1K0:1w1u1g1r", "#gem-white", "0.5835", "135,552",
                                  "splendor.save.v1", "2,100 games"])
def test_the_dated_patterns_leave_cards_and_figures_alone(text):
    assert not hits({"x": text}, DATED), hits({"x": text}, DATED)
