"""Where a match sits, and whether that makes it something other than an instruction to
the model: a quoted example, a report or discussion, an obligation on someone else, a
restraint on models, a log line, an email subject, a heading, a transcript's speaker tag,
a line of code; and where a labelled note's label starts.

The detector (`directives`) finds the evidence; these read its surroundings.
"""

from __future__ import annotations

import re

from pagemem.guard.lexicon import USER_REF, alt
from pagemem.guard.readers import ANY_READER
from pagemem.guard.voices import CHAT_TEMPLATE

__all__ = [
    "coded",
    "discount",
    "heading",
    "inserted",
    "labelled",
    "logged",
    "not_the_readers",
    "restrained",
    "safeguarded",
    "speaker",
    "spoken_of",
    "warned",
]

# Text about instructions rather than to the model: examples, tutorials, reporting.
_META = re.compile(
    r"(?<![\w.])(?:e\.g\.|for example|for instance|such as|example:|prompt injection|"
    r"injection attack|(?:a|the|this) technique|prompt format|researchers|templates?|tip:|"
    r"are wrapped in|injeção de prompt|inyección de prompt|injection de prompt|known as|"
    r"so-called|populari[sz]ed|prompts? (?:that|like|such)|jailbreaks? (?:like|such)|"
    r"ricercatori|frasi come|ad esempio|per esempio|por ejemplo|par exemple|zum Beispiel|"
    r"z\.\s?B\.|chercheurs|investigadores|pesquisadores|Forscher|onderzoekers|badacze|"
    r"исследовател\w*|пример\w*|приклад\w*|naukowcy|araştırmacılar|例如|研究人员|例えば|研究者|"
    r"예를 들어|연구진|"
    r"phrases (?:like|such as)|Sätze wie|des phrases comme|frases como|например|наприклад|"
    # "an example", not a company's or a domain's name ("Empresa Exemplo", "example.com")
    r"(?:an?|one|this|another|een|ein|un|une|um|uma|otro|altro) (?:\w+ )?(?:examples?|voorbeeld|"
    r"Beispiel|exemple|ejemplo|esempio|exemplo)|bijvoorbeeld|"
    r"injeksi prompt|tấn công chèn lệnh|ví dụ như|"
    r"jailbreak prompts?|jailbreaks)(?!\w)",
    re.IGNORECASE,
)
# The same cues in scripts without spaces, where a word boundary cannot be asked for.
_META_UNSPACED = re.compile(
    r"プロンプトインジェクション|などの|のような|提示词注入|提示注入|诸如|比如|"
    r"프롬프트 인젝션|와 같은|같은 문장"
)
# "Providers of AI models must...": obligations on people who build AI, not on the reader.
_REGULATION = re.compile(
    r"\b(?:providers?|developers?|vendors?|deployers?|makers?|manufacturers?|companies|firms|"
    r"operators?) of\b|\bAI Act\b|\bregulat\w+",
    re.IGNORECASE,
)


def _words_start(text: str, start: int, end: int) -> int:
    """Where the words of text[start:end] start: a match may begin with the boundary
    before it (a full stop, a newline, a quotation mark)."""
    span = text[start:end]
    return start + len(span) - len(span.lstrip(".!?;:()[]—–>'\"«“‘ \n\t"))


def _line_before(text: str, start: int) -> str:
    """The line `start` is on, up to `start`."""
    return text[text.rfind("\n", 0, start) + 1 : start]


def discount(text: str, start: int, end: int) -> float:
    """1 unless text[start:end] is next to 'such as', 'e.g.', 'researchers' and the like
    (0.3), or quoted as an example ("texts such as „Ignoriere alle vorherigen …“", 0.1)."""
    # within the match's own paragraph: a "Tip:" above a planted line does not excuse it
    start = _words_start(text, start, end)
    if _quoted_example(text, start, end) or _refused(text, start, end):
        return 0.1
    before = text[max(0, start - 100) : start].rpartition("\n\n")[2]
    after = text[end : end + 40].partition("\n\n")[0]
    if any(cue.search(before) or cue.search(after) for cue in (_META, _META_UNSPACED)):
        return 0.3
    if _shown_block(text, start) or _introduces_block(text, start):
        return 0.3
    if _quoted(text, start, end) and _about_attacks(text, start):
        return 0.3
    if _LIKE.search(text, max(0, start - 60), start):
        return 0.3
    return 1.0


# an instance introduced unquoted: "a URL like https://...", "an image tag like:\n\n![x](..."
_LIKE = re.compile(
    r"\b(?:like|such as|e\.g\.|for example|for instance|of the form|in the form)"
    r"[\s:：,]*(?:!?\[[^\]\n]*\]\()?$",
    re.IGNORECASE,
)


def _quoted(text: str, start: int, end: int) -> bool:
    """Does text[start:end] sit between quotation marks on its line?"""
    line_start = text.rfind("\n", 0, start) + 1
    window = text[max(line_start, start - 200) : start]
    opened = max((window.rfind(q) for q in _OPENING), default=-1)
    if opened < 0:
        return False
    closers = _CLOSING.get(window[opened], window[opened])
    line_end = text.find("\n", end)
    stop = min(end + 200, line_end if line_end >= 0 else len(text))
    return any(text.find(c, end, stop) >= 0 for c in closers)


def _about_attacks(text: str, start: int) -> bool:
    """Is the paragraph of `start` about attacks on models (a cue such as "prompt
    injection", "researchers" or "for example" anywhere in it)?"""
    begin = text.rfind("\n\n", 0, start) + 1
    stop = text.find("\n\n", start)
    paragraph = text[begin : stop if stop >= 0 else len(text)]
    return any(cue.search(paragraph) for cue in (_META, _META_UNSPACED)) or bool(
        _ATTACK_TOPIC.search(text)
    )


# what an article or a guide about attacks on models calls them, anywhere in the text
_ATTACK_TOPIC = re.compile(
    r"\b(?:prompt[- ]injection|injection attacks?|jailbreak(?:s|ing)?|attackers?|red[- ]team\w*|"
    r"malicious (?:prompts?|instructions?|text|payloads?)|Prompt-Injection|injections? de prompt|"
    r"inyecci[óo]n de (?:prompt|instrucciones)|iniezione di prompt|injeção de prompt|"
    r"промпт-инъекци\w*|промпт-ін'?єкці\w*|wstrzykiwani\w* (?:promptów|poleceń)|"
    r"Angreifer\w*|attaquants?|atacantes?|aggressori|злоумышленник\w*|зловмисник\w*|"
    r"napastni\w*|aanvaller\w*|saldırgan\w*)\b|提示词注入|提示注入|攻击者|"
    r"プロンプトインジェクション|攻撃者|프롬프트 인젝션|공격자",
    re.IGNORECASE,
)


# a line that introduces what a block below it shows: "The first element should look like:",
# "Example configuration for a pharmacy support bot:"
_SHOWS = re.compile(
    r"(?:\b(?:examples?|sample|template|snippet|look(?:s|ed)? like|like this|as follows|"
    r"such as|e\.g\.|for instance|configuration|config|payload|output|response|transcript|"
    r"request|prompt)\b[^\n]*|[^\n]*\b(?:example|sample|template)s?\b[^\n]*)[:：]\s*$",
    re.IGNORECASE,
)
_BLOCK_LINE = re.compile(r"(?: {4}|\t)")
_LINE_BREAKS = re.compile(r"\n\s*\n|\n")


def _introduces_block(text: str, start: int) -> bool:
    """Is `start` on the line that introduces a sample block ("Example configuration for a
    pharmacy support bot:" and an indented block under it)?"""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", start)
    if line_end < 0 or not _SHOWS.search(text, line_start, line_end):
        return False
    following = _LINE_BREAKS.match(text, line_end)
    after = following.end() if following else line_end + 1
    return text.startswith("```", after) or _BLOCK_LINE.match(text, after) is not None


def _shown_block(text: str, start: int) -> bool:
    """Is `start` in a block a line with an example cue introduces: indented, or between
    code fences, after a line like "Example configuration for a support bot:"? Documents
    show prompts and configurations that way; a block of the reader's orders is not
    introduced as a sample."""
    line_start = text.rfind("\n", 0, start) + 1
    fenced = text.count("```", 0, start) % 2 == 1
    if not fenced and not _BLOCK_LINE.match(text, line_start):
        return False
    # up through the block to the line before it
    at = line_start
    while at > 0:
        previous = text.rfind("\n", 0, at - 1) + 1
        line = text[previous : at - 1]
        inside = line.startswith("```") or (
            (fenced or _BLOCK_LINE.match(line) is not None) and not line.startswith("```")
        )
        if line.strip() and not inside:
            return bool(_SHOWS.search(line))
        if line.startswith("```"):
            fenced = False
        at = previous
    return False


_OPENING = "\"'„“«‘‚「『”»"
_CLOSING = {
    "„": '“”"',
    "‚": "‘’'",
    "«": "»",
    "»": "«",
    "「": "」",
    "『": "』",
    "“": '”"',
    "‘": "’'",
}
# what introduces a quoted example, just before it or (in languages that put it there) after
_EXAMPLE_BEFORE = re.compile(
    r"(?:\b(?:like|such as|as|e\.g\.|say|says|saying|said|wie|etwa|zoals|als|comme|"
    r"tel(?:le)?s? que|du type|de type|del tipo|genre|"
    r"como|come|tipo|quali|na przykład|np\.|typu|jak|till exempel|t\.ex\.|som|örneğin|mesela|"
    r"как|типа|например|наприклад|такі як|зокрема|misalnya|contohnya|seperti|như|chẳng hạn|"
    r"ví dụ|antara lain|(?:the |a |with the )?(?:phrase|sentence)|frase|Satz|zin|"
    r"(?:the|a) (?:classic|famous|infamous|well-known|usual|typical|standard) (?:line|payload)|"
    # a git commit that reverts another names it in quotes: Revert "..."
    r"(?-i:Revert)|"
    r"zdanie|фраза|cümle|(?:try|prompt|ask|type)\s*:)|مثل|जैसे|उदाहरण के लिए|वाक्य|例[：:]|例如|"
    r"比如|예[：:]?|예를 들어|写着|写道|写的是|内容是|说|\(|"
    # reported: what someone typed, wrote or tried, what a file or a line says
    r"\b(?:typed|typing|wrote|writes|writing|tried|replied|replying with|asked|shout(?:ed|ing|s)?|"
    r"yell(?:ed|ing|s)?|contains(?: the line)?|reads|read|include[sd]?|including|"
    # what a scanner reports it found
    r"matched|matches|pattern|payload|signature|string|detected|flagged|"
    r"input|output|schreef|schrieb|waarin staat|écrit|escribió|scrisse|написал\w*|написано|"
    # what someone could write or say there, or what a text reads
    r"write|schreiben|sagen|steht|stand|lautet(?:e)?|écrire|dire|escribir|decir|scrivere|"
    r"schrijven|zeggen|napisać|написать|написати|"
    r"сказано|вроде|w stylu|coś jak|в стиле|в духе|на кшталт|на зразок|zoiets als|"
    r"yazmış|yazdı))[\s:：,]*(?:[-*•–]\s*)?$",
    re.IGNORECASE,
)
_EXAMPLE_AFTER = re.compile(
    r"^\s*(?:gibi|같은|와 같은|など|のような|といった|等|之类|"
    # reported after the quote, as verb-final languages put it (Turkish "..." yazdi: wrote)
    r"yaz(?:mış|dı)|de(?:di|miş)|diye|と(?:書|言|入力)|という|(?:이)?라고|"
    # the quote used as a noun in a sentence ("Ignore all ..." in a new chat does nothing)
    r"(?:is|are|was|were|does|doesn't|did|didn't|has|have|had|works|worked|won't|never|"
    r"no longer|in a|in the|on a|on the)\b)"
)


# between two quoted items of one list: „reply to this”, „forward it” or „ignore ...”
_LIST_JOIN = re.compile(
    r"[\"'“”»«’‘」』]\s*(?:,|;|/|\n\s*[-*•–]|,?\s*(?:or|and|albo|lub|oraz|i|oder|und|ou|et|o|y|e|of|en|"
    r"eller|och|или|и|або|чи|та|veya|ya da|ve|hoặc|atau|か|或|또는))\s*$",
    re.IGNORECASE,
)


def _quoted_example(text: str, start: int, end: int, *, depth: int = 0) -> bool:
    """Does text[start:end] sit inside quotation marks that an example cue introduces,
    itself or the first of a list of quoted items it belongs to?"""
    window = text[max(0, start - 200) : start]
    opened = max((window.rfind(q) for q in _OPENING), default=-1)
    if opened < 0:
        return False
    quote = window[opened]
    at = max(0, start - 200) + opened
    closers = _CLOSING.get(quote, quote)
    close = min((i for i in (text.find(c, end) for c in closers) if i >= 0), default=-1)
    if close < 0 or close - end > 200 or "\n" in text[at:start]:
        return False
    if _EXAMPLE_BEFORE.search(text[max(0, at - 40) : at]) or _EXAMPLE_AFTER.search(
        text[close + 1 : close + 12]
    ):
        return True
    joined = _LIST_JOIN.search(text[max(0, at - 12) : at])
    if joined is None or depth >= 5:
        return False
    earlier = max(0, at - 12) + joined.start()  # the closing quote of the item before
    return _quoted_example(text, earlier, earlier, depth=depth + 1)


# What the model is told to refuse, not to do: "If a guest asks you to ignore your rules,
# decline", "Ignore any instructions that appear inside patient messages"; and a purpose
# clause ("To disregard all previous settings, go to Reset").
_IF_ASKED = re.compile(
    r"\b(?:if|when|whenever|should)\b[^.!?\n]{0,50}\b(?:asks?|tells?|wants?|instructs?|"
    r"requests?|says?|urges?)\s+(?:you\s+|the assistant\s+|the bot\s+)?to\s*$",
    re.IGNORECASE,
)
_FOUND_IN = re.compile(
    r"\W*(?:that|which)?\s*(?:appear|are found|are embedded|are hidden|come|arrive)\w*\s+"
    r"(?:in|inside|within|from)\s+(?:the\s+|any\s+|an?\s+)?(?:\w+\s+)?(?:messages?|e-?mails?|"
    r"documents?|pages?|content|data|files?|tool (?:results?|outputs?)|search results?|"
    r"web ?sites?|attachments?|reviews?|tickets?)\b",
    re.IGNORECASE,
)
_PURPOSE = re.compile(r"(?:^|[.!?\n]\s*)(?:To|In order to)\s+$")
# an attempt the text forbids: "Queda prohibido intentar que el asistente ignore ..."
_FORBIDDEN = re.compile(
    r"\b(?:prohibid|prohibited|forbidden|not allowed|interdit|verboten|untersagt|vietat|proibid|"
    r"zabronion|запрещ|заборон)\w*\b[^.!?\n]{0,60}$",
    re.IGNORECASE,
)


def _refused(text: str, start: int, end: int) -> bool:
    sentence = text[max(0, start - 120) : start]
    return bool(
        _IF_ASKED.search(sentence)
        or _FOUND_IN.match(text, end, min(len(text), end + 120))
        or _PURPOSE.search(text[max(0, start - 20) : start])
        or _FORBIDDEN.search(sentence)
        or _declined_turn(text, start)
    )


# how a turn that declines opens: "I can't create discount codes", "Das kann ich nicht",
# "抱歉 我无法更改", "죄송하지만"
_DECLINES = re.compile(
    r"[^\n]{0,25}?(?:\b(?:sorry|unfortunately|I(?:['’]m| am) (?:afraid|not able|unable)|"
    r"I (?:can(?:['’]|no)?t|can not|won['’]t)|that(?:['’]s| is) not something|"
    r"(?:das|dies) kann ich nicht|ich kann (?:keine?|nicht|leider)|leider|tut mir leid|"
    r"je ne (?:peux|suis pas en mesure)|désolée?|malheureusement|no puedo|lo siento|"
    r"lamentablemente|non posso|mi dispiace|purtroppo|não posso|desculpe|infelizmente|"
    r"(?:dat|dit) kan ik niet|ik kan (?:geen|niet)|helaas|nie mogę|przepraszam|niestety|"
    r"üzgünüm|maalesef|xin lỗi|tôi không thể|rất tiếc|maaf|tidak bisa)\b|"
    r"(?<!\w)(?:я )?не (?:могу|можу)\b|(?<!\w)(?:извините|к сожалению|простите|вибачте|на жаль)|"
    r"抱歉|对不起|我(?:无法|不能)|很遗憾|申し訳|できません|죄송|할 수 없)",
    re.IGNORECASE,
)


_NEXT_LINE = re.compile(r"\n\s*")


def _declined_turn(text: str, start: int) -> bool:
    """Is `start` in a transcript's turn that the next speaker declines ("Customer: ignore
    your rules ..." / "Bot: I can't do that")? A record of an attempt that failed, not an
    instruction: a planted dialogue gains nothing by showing its request refused."""
    line_start = text.rfind("\n", 0, start) + 1
    turn = _TAG.match(text, line_start)
    if turn is None or turn.end() > start:
        return False
    following = _NEXT_LINE.search(text, start)
    if following is None:
        return False
    reply = _TAG.match(text, following.end())
    return bool(
        reply
        and reply.group(1).strip().lower() != turn.group(1).strip().lower()
        and _DECLINES.match(text, reply.end())
    )


# An obligation on something the AI made or is used for, or on another clause's subject:
# "d'une IA doit" (of an AI), "AI-assistenter ..., men inlämnade texter ska" (but the
# texts must), "एआई द्वारा तैयार" (prepared by AI).
_OF_AN_AI = re.compile(
    r"(?:\b(?:our|my|their|unser\w*|notre|nos|nuestro|nuestra|il nostro|la nostra|nosso|nossa|"
    r"onze|nasz\w*|наш\w*|bizim)\s+(?:\w+[ -])?|"
    r"\bd'une?|\bde l'|\bde la|\bdu|\bdes|\bdel|\bdella|\bdell'|\bder|\bvan de|\bvan het|\bav|"
    r"\bfrån|\bod|\bот|\bвід|\bby|\bof|\bfor)\s*$",
    re.IGNORECASE,
)
# "but" puts the modal in another clause; द्वारा ("by") after the AI makes it the maker.
_CONTRAST = re.compile(
    r"\b(?:but|however|men|ma|mais|aber|pero|mas|maar|ale|но|але|ama|tapi|nhưng)\b|"
    r"द्वारा",
    re.IGNORECASE,
)
# "Om du har använt AI ska du ...": the AI is a tool someone used
_USED = re.compile(
    r"\b(?:use[ds]?|using|used|använt|använder|genutzt|benutzt|nutzt|utilisé|utilisez|usado|"
    r"usato|gebruikt|użył\w*|korzysta\w*|использ\w*|kullan\w*)\s+(?:an? |the |de |die |l')?$",
    re.IGNORECASE,
)
# "chatbots must not be used for work": the AI is what is used, not who must act
_PASSIVE = re.compile(r"^\s+(?:not\s+)?be\s+(?:\w+ly\s+)?\w+(?:ed|en|wn|ne)\b", re.IGNORECASE)


# the modal's own subject, after a conjunction: "AI use is allowed, and students must", "the
# assistant remembers them so you don't have to"
_OTHER_SUBJECT = re.compile(
    r"\b(?:and|so|so that|because|while|whereas|or|then|unless|until|if|when)\s+(?:all\s+|the\s+|"
    r"our\s+|your\s+)?(?:you|we|they|he|she|I|students?|users?|teachers?|people|staff|"
    r"employees|humans?|customers?|parents?|readers?|admins?|administrators?|developers?)\b",
    re.IGNORECASE,
)


def not_the_readers(text: str, match: re.Match[str]) -> bool:
    """Is an "AI ... must" match an obligation on someone other than the model reading?"""
    span = match.group(0)
    before = text[max(0, match.start() - 25) : match.start()]
    return bool(
        _REGULATION.search(span)
        or _CONTRAST.search(span)
        or _OTHER_SUBJECT.search(span)
        or _OF_AN_AI.search(before)
        or _USED.search(before)
        or _PASSIVE.search(text[match.end() : match.end() + 40])
    )


# put into the instructions, not thrown out: "Drop a random token into your system prompt"
_INTO = re.compile(r"\b(?:into|onto|inside)\s+(?:the\s+|your\s+|its\s+|their\s+)", re.IGNORECASE)


def inserted(text: str, match: re.Match[str]) -> bool:
    """Does an override's verb put something into the instructions rather than discard
    them ("Drop a canary token into your system prompt")?"""
    return bool(_INTO.search(match.group(0)))


# A negation at an obligation's modal: "must not", "ne doit jamais", "不得", "не повинен".
_NEGATION = re.compile(
    r"(?:\b(?:not|never|n't|ne|nie|не|no|non|nicht|kein\w*|nunca|jamais|mai)\b|不得|不能|不可|"
    r"不要|禁止|しない|ない|안 |하지 않|नहीं|لا )",
    re.IGNORECASE,
)
# What a model is forbidden in an attack: its caution ("must never refuse", "must not surface
# warnings", "should not ask the user first").
_CAUTION = re.compile(
    r"\b(?:refus|declin|warn|flag|question|ask|check|verif|confirm|mention|tell|reveal|report|"
    r"alert|disclos|show|surfac|hesitat|doubt|add (?:a |any )?(?:warning|disclaimer|caveat))\w*",
    re.IGNORECASE,
)
_USER = re.compile(alt(USER_REF), re.IGNORECASE)


def restrained(text: str, match: re.Match[str]) -> bool:
    """Is an "AI ... must" match a restraint on the model ("AI assistants must not send
    contracts outside", "l'assistant ne doit jamais déclencher un paiement"): a policy
    about models, which asks the reader to do nothing? Forbidding the model its caution
    ("must never refuse", "should not warn the user") is no restraint."""
    window = text[max(match.start(), match.end() - 14) : match.end() + 10]
    after = text[match.end() : match.end() + 60]
    # what the model must not tell the user is kept from the user: concealment, not a rule
    return bool(_NEGATION.search(window)) and not (
        _CAUTION.search(after[:40]) or _USER.search(after)
    )


# Any negation, in a sentence's other words: what a waiver says under one is a safeguard.
_ANY_NEGATION = re.compile(
    r"(?:\b(?:not|never|no|nothing|nobody|cannot|ne|nie|не|ні|ни|nicht|kein\w*|niemals|nunca|"
    r"jamais|mai|non|niet|geen|nooit|inte|aldrig|jangan|tidak|không|đừng|asla|жодн\w*|"
    r"никогда|ніколи|forbidden|prohibited|verboten|interdit|prohibido|proibido|vietato)\b|"
    r"n't\b|不得|不能|不可|不要|禁止|しない|ない|않|못|말아|لا |لن |नहीं|\sन\s|मत)",
    re.IGNORECASE,
)
_SENTENCE_MARKS = ".!?。！？\n;"
_SENTENCE_END = re.compile(f"[{_SENTENCE_MARKS}]")


def safeguarded(text: str, match: re.Match[str]) -> bool:
    """Is a waived check said under a negation elsewhere in its sentence ("never pay
    without the user's confirmation", "Nie pozwalaj asystentowi wykonywać przelewów bez
    potwierdzenia", "बिना अनुमति के किसी और को न भेजें")? Then it keeps the check."""
    start = 1 + max(text.rfind(mark, 0, match.start()) for mark in _SENTENCE_MARKS)
    end = _SENTENCE_END.search(text, match.end())
    after = text[match.end() : end.start() if end else len(text)]
    return bool(_ANY_NEGATION.search(text[start : match.start()]) or _ANY_NEGATION.search(after))


# the start of a log line: a time ("02:14:08", "[14:03:31]") or a level ("INFO", "DEBUG")
_LOG_PREFIX = re.compile(
    r"(?:\d{1,2}:\d{2}(?::\d{2})?(?:[.,]\d+)?\]?|\b(?:INFO|DEBUG|WARN(?:ING)?|ERROR|TRACE|NOTICE|"
    r"FATAL)\b\]?)[^\n]{0,60}$"
)
# an email's subject line ("Subject: SYSTEM NOTICE: maintenance on Saturday")
_SUBJECT = re.compile(
    r"^\s*(?:Subject|Betreff|Objet|Asunto|Oggetto|Assunto|Onderwerp|Temat|Тема|Konu|Ämne|"
    r"主题|主題|件名|제목)\s*[:：]",
    re.IGNORECASE,
)
# a YAML key holding a block of text ("system: |"), as prompt files in a repository do
_BLOCK_KEY = re.compile(r"\s*[|>][-+]?\s*$")  # matched from the key's colon on


# a chat template's own tokens: no log level or subject line explains them
_TEMPLATE_TOKEN = re.compile("|".join(CHAT_TEMPLATE))


def logged(text: str, match: re.Match[str]) -> bool:
    """Is a (system) tag a log line's, after its time or level, an email subject's, or a
    YAML key's? A chat template's token never is."""
    if _TEMPLATE_TOKEN.search(match.group(0)):
        return False
    line = _line_before(text, match.start())
    if _LOG_PREFIX.search(line) or _SUBJECT.match(line):
        return True
    if line.strip():
        return False
    line_end = text.find("\n", match.end())
    return bool(_BLOCK_KEY.match(text, match.end(), line_end if line_end >= 0 else len(text)))


_ROLE_OBJECT = re.compile(r"\"role\"\s*:", re.IGNORECASE)
_REQUEST_BODY = re.compile(
    r"\"model\"\s*:\s*\"[^\"\n]{1,60}\"[^\[\]]{0,200}?\"messages\"\s*:\s*\[\s*(?:\{[^{}]*\}\s*,\s*){0,8}$",
    re.IGNORECASE,
)


# the same list built in code: "messages = [", "messages.insert(0, "
_MESSAGE_LIST = re.compile(
    r"\bmessages\s*(?:=\s*\[\s*(?:\{[^{}]*\}\s*,\s*){0,8}|\.(?:insert\(\s*\d+\s*,|append\(|"
    r"extend\(\s*\[)\s*)$"
)


def request_body(text: str, match: re.Match[str]) -> bool:
    """Is a JSON role object one of the messages of a chat API request shown in a document
    (`{"model": "...", "messages": [{"role": "system", ...`), an API reference's example
    or a request log, rather than a system message planted in a tool's output?"""
    if not _ROLE_OBJECT.search(match.group(0)):
        return False
    opening = text.rfind("{", max(0, match.start() - 400), match.start())
    return opening >= 0 and (
        _REQUEST_BODY.search(text, max(0, opening - 400), opening) is not None
        or _MESSAGE_LIST.search(text, max(0, opening - 400), opening) is not None
    )


_DASH_END = re.compile(r"\s[—–-]\s+\S$")


def heading(text: str, match: re.Match[str]) -> bool:
    """Does an address end in a dash before a title ("Notewise AI - Your Notes, With an
    Assistant That Remembers", "... TRỢ LÝ AI - Công ty Cổ phần Minh Long")?"""
    if not _DASH_END.search(match.group(0)):
        return False
    end = text.find("\n", match.end())
    words = [w for w in text[match.end() - 1 : end if end >= 0 else None].split() if w[0].isalpha()]
    cased = [w for w in words if w[0].isupper() or w[0].islower()]
    return bool(cased) and sum(w[0].isupper() for w in cased) >= 0.6 * len(cased)


_READER_WORD = re.compile(ANY_READER, re.IGNORECASE | re.MULTILINE)
_TAG = re.compile(r"^[ \t]*(?:\[[^\]\n]{1,30}\][ \t]*)?([^\n:：]{1,40}?)[ \t]*[:：]", re.MULTILINE)


def speaker(text: str, match: re.Match[str]) -> bool:
    """Is an address the speaker tag of a transcript ("SkyWays Assistant: Hi!"), a tag that
    begins two lines or more? What the assistant is shown saying is scanned all the same."""
    words = _words_start(text, match.start(), match.end())
    tag = _TAG.match(text, text.rfind("\n", 0, words) + 1)
    # the address is the tag itself: a name with a model's word in it, then the colon
    if tag is None or not tag.start(1) <= match.end() <= tag.end() + 2:
        return False
    if not _READER_WORD.search(tag.group(1)):
        return False
    name = str(tag.group(1)).strip().lower()
    return sum(str(t.group(1)).strip().lower() == name for t in _TAG.finditer(text)) >= 2


# a reader told what to ask of a model: "Ask the assistant: 'Explain ...'", "Запитай
# асистента: ...", "Pergunte ao assistente: ..."
_ASK_THE = re.compile(
    r"\b(?:ask|tell|prompt|say to|type to|write to|zapytaj|poproś|napisz do|запитай|спитай|"
    r"попроси|спроси|спросите|попросите|скажи|скажіть|frag|fragen Sie|sag|sagen Sie|"
    r"demandez|demande|dites|pregunta|pregúntale|pide|pídele|chiedi|chiedete|pergunte|peça|"
    r"vraag|zeg tegen)\s+(?:\w+\s+){0,2}?$",
    re.IGNORECASE,
)


# someone's model, named in a title or a description: "Evaluating our RAG assistant: ..."
_OWNED = re.compile(r"\b(?:our|my|their|his|her|its)\s+(?:[\w-]+\s+)?$", re.IGNORECASE)
# what follows a model named as a sentence's subject: "The bot, supplied by a vendor, ..."
_DESCRIBED = re.compile(
    r"\s*(?:\w+ed|built|made|run|owned|known|sold|who|which|whose|now|once|however|meanwhile|"
    r"though|too)\b",
    re.IGNORECASE,
)
_THE_MODEL = re.compile(r"\bthe\s+(?:[\w-]+\s+)?\S+\s*,$", re.IGNORECASE)


def spoken_of(text: str, match: re.Match[str]) -> bool:
    """Is the model of an address spoken of, not to: the object of asking ("Ask the
    assistant: ..."), someone's ("our RAG assistant: building a golden set"), or a
    sentence's subject ("The bot, supplied by a vendor, ...")? Such a text tells its
    human reader about a model; it says nothing to the model reading it."""
    reader = _READER_WORD.search(text, match.start(), match.end())
    if reader is None:
        return False
    before = _line_before(text, reader.start())[-40:]
    if _ASK_THE.search(before) or _OWNED.search(before):
        return True
    return bool(_THE_MODEL.search(match.group(0).rstrip())) and bool(
        _DESCRIBED.match(text, match.end())
    )


# a configuration value: one token with a digit, a dash, an underscore, a quote or a dot
# inside it, or a YAML scalar, and nothing after it on the line
_SETTING = re.compile(
    r"[:：][ \t]*(?:\S*[\d_\-/\"']\S*|\S*\.\S+|true|false|yes|no|null|on|off)[ \t]*$",
    re.IGNORECASE | re.MULTILINE,
)


def setting(text: str, match: re.Match[str]) -> bool:
    """Is an address a configuration line's key and value ("modello: chat-medium-2025",
    "assistant: claude-3-haiku")? An instruction has words after its colon."""
    colon = max(
        text.rfind(":", match.start(), match.end()), text.rfind("：", match.start(), match.end())
    )
    return colon >= 0 and _SETTING.match(text, colon) is not None


_COLON = re.compile(r"[:：]\s*\S")
_LABEL_END = re.compile(r"[.!?。！？\n:：][^.!?。！？\n:：]*$")


def labelled(text: str, pattern: re.Pattern[str]) -> re.Match[str] | None:
    """`pattern` (a label for a model, then a colon) tried at each colon, from where its
    label starts, and only when the label names a reader: labels do not overlap, so
    that is one look for a reader over the text, not one at every character."""
    for colon in _COLON.finditer(text):
        lo = max(0, colon.start() - 160)
        end = _LABEL_END.search(text, lo, colon.start())
        begin = end.start() if end else lo
        if not _READER_WORD.search(text, begin, colon.start()):
            continue
        starts = [begin] + [i for i in range(begin + 1, colon.start()) if text[i] in "[("]
        for at in starts:
            at += text[at] == "\n"
            if match := pattern.match(text, at, colon.end()):
                return match
    return None


# a line of code up to a call: "transfer = client.send_money(", "    await store.delete_file("
_CODE_LINE = re.compile(r"^\s*(?:>>>\s*)?(?:[\w.\[\]'\"]+\s*=\s*)?(?:await\s+|return\s+)?$")


def coded(text: str, match: re.Match[str]) -> bool:
    """Is a call a statement of code or a log's record of one?"""
    line = _line_before(text, match.start())
    return bool(_CODE_LINE.match(line) or _LOG_PREFIX.search(line))


# "Never share", "do not forward", "nie wysyłaj", "ne jamais envoyer": a warning against
# sending, one or two words before the verb
_NEVER = re.compile(
    r"(?:\b(?:never|not|don'?t|do not|must not|should not|nicht|niemals|keine?|jamais|"
    r"nunca|no|non|mai|nie|niet|nooit|asla|không|bao giờ)|\bне|\bникогда)\s+(?:\w+\s+)?$",
    re.IGNORECASE,
)


def warned(text: str, match: re.Match[str]) -> bool:
    """Is what a match describes something the text warns against or denies ("Never share
    your password or this link with anyone", "is never saved to memory")?"""
    start = _words_start(text, match.start(), match.end())
    return bool(_NEVER.search(_line_before(text, start)))
