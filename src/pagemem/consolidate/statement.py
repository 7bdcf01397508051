"""What a short note says, read without a model: its subject, its values, its markers.

Consolidation compares a new note with the facts it might repeat or replace. Cosine
similarity says two notes are about the same thing, never that they say the same
value ("married to Alex" and "married to Jordan" are 0.8 apart), so the comparison
needs what carries a value: numbers, times, dates, codes, names and the content
words themselves, plus negation and its scope. This module turns a note into those
parts. It knows closed classes of English function words (negation, "also", "now",
"actually", kinship and social roles for subjects); it has no list of verbs or
attributes, so a change phrased in words nobody listed is still a change of value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import snowballstemmer

from pagemem.retrieval.lexical import STOP_WORDS

__all__ = ["Statement", "read"]

_STEM = lru_cache(maxsize=100_000)(snowballstemmer.stemmer("english").stemWord)

# a time, a number (with separators), a word (apostrophes kept), or a lone sign
_TOKEN = re.compile(
    r"(?P<code>[\w.+-]+@[\w-]+(?:\.[\w-]+)+|https?://\S+|www\.\S+)"
    r"|(?P<time>\b\d{1,2}(?:[:.]\d{2})?\s?(?:am|pm|a\.m\.|p\.m\.)(?![a-z])|\b\d{1,2}:\d{2}\b)"
    r"|(?P<num>\d+(?:[.,]\d+)*(?:st|nd|rd|th)?)"
    r"|(?P<word>[^\W\d_][\w'\u2019+\-]*)"
    r"|(?P<end>[.!?;:\n])",
    re.IGNORECASE,
)
# A capitalised word after a word in the same sentence: part of a name.
# (Not a word in capitals: "we adopted ANOTHER one" is emphasis.)
_NAME_INSIDE = re.compile(
    r"(?<=[^\s.!?:;] )['\"\u2018\u201c]?(?!I\b)[A-Z](?:[a-z\u00e0-\u00ff][\w'\u2019-]*)?\b"
)
_SIGNED = re.compile(r"[A-Z]{1,2}[+-]")
_CLITIC = re.compile(r"(?i)(n't|'s|'m|'re|'ve|'d|'ll)$")

_NUMBER_WORDS = {
    "zero": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
    "seven": "7", "eight": "8", "nine": "9", "ten": "10", "eleven": "11", "twelve": "12",
    "thirteen": "13", "fourteen": "14", "fifteen": "15", "sixteen": "16", "seventeen": "17",
    "eighteen": "18", "nineteen": "19", "twenty": "20", "thirty": "30", "forty": "40",
    "fifty": "50", "sixty": "60", "seventy": "70", "eighty": "80", "ninety": "90",
    "hundred": "100", "dozen": "12", "half": "0.5", "noon": "12:00", "midnight": "0:00",
    "once": "1x", "twice": "2x",
}  # fmt: skip
# Number words that build one number with the next ("four thousand", "twenty-five").
_UNITS = {
    w: int(v) for w, v in _NUMBER_WORDS.items() if v.isdigit() and w not in ("dozen", "hundred")
}
_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000, "billion": 1_000_000_000}
# Day abbreviations that are everyday words too ("sat down", "the sun", "they wed").
_PLAIN_DAYS = {"sat", "sun", "wed", "mon", "thur"}
_DAY_CUES = {"on", "this", "next", "last", "every", "til", "till", "until", "by", "from", "to"}
_MONTHS = {
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug",
    "sep", "sept", "oct", "nov", "dec",
}  # fmt: skip
_DAYS = {
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "mon",
    "tue", "tues", "wed", "thu", "thur", "thurs", "fri", "sat", "sun", "weekday", "weekend",
    "weekdays", "weekends", "tomorrow", "tonight",
}  # fmt: skip
# Negation and its everyday forms; the word after one is what is denied.
_NEGATIONS = {
    "not", "n't", "no", "never", "nor", "without", "stopped", "stop", "quit", "quitting",
    "ceased", "cancelled", "canceled", "cancel", "dropped", "ditched", "gave", "giving",
    "longer", "anymore", "nobody", "none", "neither",
}  # fmt: skip
_NEGATION_HEADS = {"not", "n't", "no", "never", "nor", "without", "none", "neither", "nobody"}
# "gave up", "no longer": the second word only negates after the first
_NEGATION_PAIRS = {("gave", "up"), ("giving", "up"), ("no", "longer"), ("any", "more")}
_STOPPING = {"stopped", "stop", "quit", "quitting", "ceased", "cancelled", "canceled", "cancel",
             "dropped", "ditched"}  # fmt: skip
_ADDITION = {"also", "too", "another", "additionally", "besides", "plus", "second", "both",
             "addition", "extra", "well"}  # fmt: skip
_CORRECTION = {"actually", "correction", "misspoke", "meant", "scratch", "typo", "wrong",
               "mistake", "oops", "instead", "rather", "clarify", "sorry", "wait"}  # fmt: skip
# Words that change how a value is said, never what it is.
_FILLERS = {
    "really", "very", "just", "actually", "definitely", "still", "always", "truly",
    "absolutely", "honestly", "basically", "literally", "so", "quite", "pretty", "totally",
    "lot", "much", "anyway", "though", "also", "too", "indeed", "certainly", "sure", "yes",
    "yeah", "ok", "okay", "hey", "hi", "btw", "fyi", "lol", "kinda", "um", "well", "oh",
    "now", "currently", "nowadays", "days", "these", "note", "remember", "mentioned",
    "said", "says", "told", "user", "users", "fact", "update", "quick", "again", "correction",
    "misspoke", "meant", "sorry", "wait", "oops", "typo", "scratch", "sir",
    "madam", "dear", "thanks", "thank", "please", "cheers", "best", "regards",
}  # fmt: skip
_CLITICS = {"'s", "'m", "'re", "'ve", "'d", "'ll"}
_FIRST_PERSON = {"i", "me", "my", "mine", "myself", "we", "us", "our", "ours", "user"}
_OWNERS = {"my": "user", "our": "user", "his": "", "her": "", "their": "", "your": "user"}
# People a note can be about, named by their relation to someone.
_ROLES = {
    "mother", "mom", "mum", "mama", "father", "dad", "papa", "parent", "parents", "sister",
    "brother", "sibling", "siblings", "wife", "husband", "partner", "spouse", "fiance",
    "fiancee", "boyfriend", "girlfriend", "son", "daughter", "kid", "kids", "child",
    "children", "baby", "grandmother", "grandma", "granny", "grandfather", "grandpa",
    "grandson", "granddaughter", "aunt", "uncle", "cousin", "niece", "nephew", "friend",
    "bestie", "roommate", "flatmate", "housemate", "neighbour", "neighbor", "boss", "manager",
    "colleague", "coworker", "co-worker", "landlord", "landlady", "tenant", "doctor",
    "dentist", "therapist", "vet", "teacher", "tutor", "coach", "assistant", "mentor",
    "stepmother", "stepfather", "stepson", "stepdaughter", "in-law", "mother-in-law",
    "father-in-law", "sister-in-law", "brother-in-law", "dog", "cat", "pet", "puppy",
    "kitten", "team", "client", "accountant", "lawyer", "physio", "gp", "nanny", "babysitter",
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Statement:
    """A note read for consolidation.

    `content` is every content word, stemmed (values included), `values` the part of it
    that is certainly a value (numbers, times, dates, codes, names), `denied` the words
    a negation applies to, `subjects` who the note is about ("user", a name, or
    "owner:role" such as "user:sister"); empty when it does not say.
    """

    text: str
    content: frozenset[str]
    values: frozenset[str]
    kinds: dict[str, str]  # value -> "number" | "time" | "date" | "name" | "code"
    denied: frozenset[str]
    subjects: frozenset[str]
    addition: bool  # "also", "another", "too": one more value, not a new one
    correction: bool  # "actually", "I misspoke", "scratch that"
    stopping: bool  # "no longer", "stopped", "quit": the old value ends
    changing: bool  # "now", "instead", "new", "changed", "moved to": says it is a change
    # "up by 60", "by another 25": a number moved by an amount; read as a likely change,
    # never enough alone to close the old fact (fares "going up by 20p" is not the commute)
    delta: bool = False


def only(a: Statement, b: Statement) -> set[str]:
    """What `a` says that `b` does not: content stems of `a` that no stem of `b` equals
    or extends ("allerg" ~ "allergi": allergic / allergy; both 4+ letters)."""
    return set(_only(a.content, b.content))


@lru_cache(maxsize=200_000)
def _only(mine: frozenset[str], theirs: frozenset[str]) -> frozenset[str]:
    extended = _extended(theirs)
    return frozenset(
        stem
        for stem in mine - theirs
        if len(stem) < 4 or (stem not in extended and theirs.isdisjoint(_heads(stem)))
    )


@lru_cache(maxsize=20_000)
def _extended(content: frozenset[str]) -> frozenset[str]:
    """Every stem of 4+ letters that some stem of `content` extends (or equals)."""
    return frozenset(head for stem in content for head in (*_heads(stem), stem))


@lru_cache(maxsize=100_000)
def _heads(stem: str) -> frozenset[str]:
    """The proper beginnings of a stem that have 4+ letters."""
    return frozenset(stem[:n] for n in range(4, len(stem)))


@dataclass(slots=True)
class _Token:
    raw: str
    low: str
    kind: str  # "time" | "num" | "word" | "end"
    initial: bool  # first word of a sentence


def _tokens(text: str) -> list[_Token]:
    out: list[_Token] = []
    initial = True
    for found in _TOKEN.finditer(text):
        kind = found.lastgroup or "word"
        raw = found.group(0)
        if kind == "end":
            out.append(_Token(raw, raw, "end", False))
            initial = True
            continue
        if kind == "word":
            raw = raw.replace("\u2019", "'")
            clitic = _CLITIC.search(raw) if "'" in raw else None  # every clitic has one
            if clitic and len(raw) > len(clitic.group(1)):
                stem_part = raw[: clitic.start()]
                if clitic.group(1).lower() == "n't":
                    stem_part = {"ca": "can", "wo": "will", "sha": "shall"}.get(
                        stem_part.lower(), stem_part
                    )
                out.append(_Token(stem_part, stem_part.lower(), "word", initial))
                out.append(_Token(clitic.group(1), clitic.group(1).lower(), "word", False))
                initial = False
                continue
            # a sign after a capital or two is part of the value ("A-", "AB+", "B-")
            if raw[-1:] not in "+-" or not _SIGNED.fullmatch(raw):
                raw = raw.strip("'-")
            if not raw:
                continue
        out.append(_Token(raw, raw.lower(), kind, initial))
        initial = False
    return out


def _time(raw: str) -> str:
    found = re.match(r"(\d{1,2})(?:[:.](\d{2}))?\s?([ap])?", raw.lower())
    assert found is not None
    hour, minute, half = int(found.group(1)), int(found.group(2) or 0), found.group(3)
    if half == "p" and hour < 12:
        hour += 12
    if half == "a" and hour == 12:
        hour = 0
    return f"{hour}:{minute:02d}"


def _number(raw: str) -> str:
    digits = re.sub(r"(?<=\d)(st|nd|rd|th)$", "", raw.lower())
    digits = re.sub(r"(?<=\d),(?=\d{3}\b)", "", digits)
    return digits.lstrip("0") or "0" if digits.isdigit() else digits


def _number_words(tokens: list[_Token], i: int) -> tuple[str, int] | None:
    """The number a run of number words starting at `i` says ("four thousand", "two
    hundred and fifty", "twenty-five"), and how many tokens it takes; None for one word."""
    first = tokens[i]
    if first.kind != "word" or (first.low not in _UNITS and "-" not in first.low):
        return None  # a run starts with a unit ("four", "twenty-five"): most words are not
    if not all(p in _UNITS for p in first.low.split("-")):
        return None
    total, current, used, end = 0, 0, 0, i
    for j in range(i, len(tokens)):
        low = tokens[j].low
        parts = low.split("-")
        if tokens[j].kind != "word":
            break
        if low == "and" and used and j + 1 < len(tokens) and tokens[j + 1].low in _UNITS:
            continue
        if all(part in _UNITS for part in parts):
            added = sum(_UNITS[part] for part in parts)
            tens = current % 100
            if used and not (tens == 0 or (tens >= 20 and tens % 10 == 0 and added < 10)):
                break  # "one two three" is three numbers, not six
            current += added
        elif low in _SCALES and used:
            scale = _SCALES[low]
            if scale == 100:
                current = max(current, 1) * 100
            else:
                total, current = total + max(current, 1) * scale, 0
        else:
            break
        used, end = used + 1, j + 1
    if used == 0 or (used == 1 and "-" not in tokens[i].low):
        return None
    return str(total + current), end - i


def _letter(tokens: list[_Token], i: int) -> bool:
    """A capital letter on its own that names something ("row D", "Plan B", "vitamin
    D"), not the word "I" or the article "A"."""
    token = tokens[i]
    if len(token.raw) != 1 or not token.raw.isupper() or token.raw == "I":
        return False
    if token.raw != "A":
        return True
    nxt = tokens[i + 1] if i + 1 < len(tokens) else None
    return not token.initial and (nxt is None or nxt.kind != "word")


def _is_name(tokens: list[_Token], i: int) -> bool:
    token = tokens[i]
    if token.kind != "word" or not token.raw[:1].isupper() or token.low in STOP_WORDS:
        return False
    if token.low in _FIRST_PERSON or token.low in _FILLERS or token.low in _ROLES:
        return False
    if not token.initial:
        return True
    if token.low.endswith(("ing", "ed")):  # "Insuring Grandad's fiddle": a verb
        return False
    # First word of a sentence: a name only when it is marked as one (possessive,
    # another capitalised word next, or written capitalised elsewhere in the note).
    nxt = tokens[i + 1] if i + 1 < len(tokens) else None
    if nxt is not None and (nxt.low == "'s" or (nxt.kind == "word" and nxt.raw[:1].isupper())):
        return True
    return any(t.raw == token.raw and not t.initial for t in tokens[i + 1 :])


def _verbish(token: _Token | None) -> bool:
    if token is None or token.kind != "word":
        return False
    return token.low in {"is", "was", "has", "had", "'s", "will", "can", "does", "did"} or (
        len(token.low) > 3 and token.low.endswith(("s", "ed")) and not token.raw[:1].isupper()
    )


@lru_cache(maxsize=20_000)
def read(text: str) -> Statement:
    """The parts of a note that decide restatement and change."""
    tokens = _tokens(text)
    content: set[str] = set()
    values: set[str] = set()
    kinds: dict[str, str] = {}
    denied: set[str] = set()
    negate_next = False
    words = [t.low for t in tokens]
    skip_to = 0
    for i, token in enumerate(tokens):
        if token.kind == "end":
            negate_next = False
            continue
        if i < skip_to:  # the rest of a run of number words, read with its first
            continue
        low = token.low
        prev = words[i - 1] if i else ""
        nxt = words[i + 1] if i + 1 < len(words) else ""
        value: str | None = None
        kind = ""
        if token.kind == "time":
            value, kind = _time(token.raw), "time"
        elif token.kind == "num":
            value, kind = _number(token.raw), "number"
        elif token.kind == "code":
            value, kind = low.rstrip("."), "code"
        elif (run := _number_words(tokens, i)) is not None:
            (value, taken), kind = run, "number"
            skip_to = i + taken
        elif low in _NUMBER_WORDS and not (low == "one" and nxt in ("of", "more")):
            value, kind = _NUMBER_WORDS[low], "number"
        elif low in _MONTHS and (token.raw[:1].isupper() or low != "may") and low != "march":
            value, kind = low[:3], "date"
        elif low == "march" and (token.raw[0].isupper() or nxt.isdigit() or prev.isdigit()):
            value, kind = "mar", "date"
        elif low in _DAYS and (
            low not in _PLAIN_DAYS
            or token.raw[:1].isupper()
            or prev in _DAY_CUES
            or nxt[:1].isdigit()
        ):
            value, kind = (low.rstrip("s"), "date") if low.startswith("week") else (low[:3], "date")
        elif (
            (not low.isalpha() and any(ch.isdigit() for ch in low))
            or (len(token.raw) > 1 and token.raw.isupper())
            or _letter(tokens, i)
            or token.raw in ("+", "-")
            or low in ("a+", "a-", "b+", "b-", "ab+", "ab-", "o+", "o-")
        ):
            value, kind = low, "code"
        if low in _NEGATION_HEADS or low in _STOPPING or (prev, low) in _NEGATION_PAIRS:
            if low != "no" or nxt not in ("one", "1"):
                negate_next = True
            continue
        if (low in STOP_WORDS or low.lstrip("'") in STOP_WORDS or low in _CLITICS) and (
            value is None
        ):
            continue
        marker = low in _FILLERS or low in _NEGATIONS or low in _ADDITION or low in _CORRECTION
        if marker and value is None:
            continue
        if value is None:
            stem = _STEM(low.replace("'", ""))
            if _is_name(tokens, i):
                kinds[stem] = "name"
                values.add(stem)
        else:
            stem = value
            kinds[stem] = kind
            values.add(stem)
        content.add(stem)
        if negate_next:
            denied.add(stem)
            negate_next = False
    # the marker words below say nothing inside a name ("a 'New Dawn' rose")
    lowered = _NAME_INSIDE.sub(" ", text).lower()
    addition = bool(
        re.search(
            r"\b(?:also|another|additionally|as well|in addition|besides|a second|one more)\b"
            r"|,?\s+too\b(?=\s*(?:[.!?,;:)]|$))",
            lowered,
        )
    )
    # a number moved by an amount ("up by 60", "by another 25", "another 8 km"): the same
    # value changed, not one more value
    delta = bool(
        re.search(
            r"\b(?:another|an extra)\s+\d|\b(?:up|down|increased|decreased|raised|cut|reduced|"
            r"lowered|bumped|dropped|upped|rose|fell|went)\s+(?:\w+\s+)?by\s+(?:another\s+)?\d",
            lowered,
        )
    )
    addition = addition and not delta
    correction = bool(
        re.search(
            r"\b(?:actually|correction|misspoke|i meant|meant to (?:say|write)|scratch that|"
            r"typo|oops|my (?:bad|mistake)|not \w+(?: \w+)? but|wait,? no|sorry,|instead|"
            r"rather than|to clarify|i was wrong)\b",
            lowered,
        )
    )
    stopping = bool(
        re.search(
            r"\b(?:no longer|not anymore|any ?more|stopped|quit|gave up|giving up|cancell?ed|"
            r"dropped|ditched|ceased|no more)\b",
            lowered,
        )
    )
    changing = (
        stopping
        or correction
        or bool(
            re.search(
                r"\b(?:now|instead|new|changed?|updated?|these days|from now on|anymore|moved|"
                r"switched|swapped|rescheduled|postponed|pushed back|brought forward)\b",
                lowered,
            )
        )
    )
    return Statement(
        text=text,
        content=frozenset(content),
        values=frozenset(values),
        kinds=kinds,
        denied=frozenset(denied),
        subjects=frozenset(_subjects(tokens)),
        addition=addition,
        correction=correction,
        stopping=stopping,
        changing=changing,
        delta=delta,
    )


def _subjects(tokens: list[_Token]) -> set[str]:
    """Who the note is about: a role of someone ("my sister", "Priya's boss"), a name at
    the start of a sentence that acts ("Maya works ..."), or the user ("I", "my")."""
    words = [t for t in tokens if t.kind != "end"]
    found: set[str] = set()
    # an assistant's note about the user ("User said their dad ..."): their, his and her
    # are the user's
    summary = bool(words) and words[0].low == "user"
    # a role names the subject only at the start ("My sister ...", "Zoe's boss ..."),
    # not as an object ("lives in Seville with his parents")
    for i, token in enumerate(words[:3]):
        nxt = words[i + 1] if i + 1 < len(words) else None
        owner: str | None = None
        if token.low in _OWNERS:
            owner = "user" if summary else _OWNERS[token.low]
        elif nxt is not None and nxt.low == "'s" and token.raw[:1].isupper():
            owner = _STEM(token.low)
        if owner is None:
            continue
        start = i + (2 if nxt is not None and nxt.low == "'s" else 1)
        role_found = False
        for at, role in enumerate(words[start : start + 3], start):
            if role.low in _ROLES:
                found.add(f"{owner}:{_STEM(role.low)}")
                named = words[at + 1] if at + 1 < len(words) else None
                if named is not None and _is_name(words, at + 1):
                    found.add(_STEM(named.low))  # "my wife Hana": Hana is who it is about
                role_found = True
                break
            if role.low in STOP_WORDS:
                continue
            if role.low not in ("new", "old", "older", "younger", "little", "big", "best"):
                break
        if not role_found and owner:  # "Priya's phone": Priya herself
            found.add(owner)
    if found:
        return found
    if words and words[0].raw[:1].isupper() and words[0].low not in STOP_WORDS:
        first = words[0]
        plain = first.low in _FIRST_PERSON or first.low in _FILLERS or first.low == "the"
        if not plain and _verbish(words[1] if len(words) > 1 else None):
            return {_STEM(first.low)}
    if any(t.low in _FIRST_PERSON for t in words[:8]):
        return {"user"}
    return set()
