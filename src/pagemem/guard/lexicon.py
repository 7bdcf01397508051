"""Words the directive detector looks for, in the languages notes arrive in.

Each list holds regular-expression fragments; `alt` joins them into one
alternation. Languages: English, German, French, Spanish, Italian, Portuguese,
Dutch, Polish, Swedish, Turkish, Russian, Ukrainian, Arabic, Hindi, Indonesian,
Vietnamese, Chinese, Japanese and Korean, and for the commonest words (the model's names,
an override's, the user, memory, keeping quiet) Greek, Hebrew, Thai, Persian, Czech,
Romanian, Hungarian, Finnish, Danish, Norwegian, Bengali, Tamil and Swahili.
Words are picked for what an instruction aimed at a model says, not for what a page
about models says: "the assistant must", not "assistant".
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = [
    "DATA",
    "HIDE_FROM_REPORT",
    "LABEL_CLOSE",
    "LABEL_END",
    "MEMORY",
    "MEMORY_PLAIN",
    "MODAL",
    "ORDER_VERB",
    "OWNER",
    "POLITE",
    "ROLE_REQUEST",
    "SEND",
    "STRONG_DATA",
    "TELL_NOBODY",
    "TELL_NOT",
    "THE_USER",
    "USER_MENTION",
    "USER_REF",
    "alt",
    "spelled",
]

# A bracket closing a label ("[Editor's note] ...", "[note for the agent] ..."), not a
# citation's number ("see [1]"); and what ends a label for a model: that or a colon.
LABEL_CLOSE = r"(?<=[^\W\d])\]"
LABEL_END = rf"(?:[:：]|{LABEL_CLOSE})"

_SPACED_SCRIPTS = re.compile(r"^[\x00-\u024f\u0370-\u04ff\s]*$")
_SYNTAX = re.compile(r"\\[bwsdWSD]|\(\?[:!=<]+|[()\[\]?*+{}^$]")


def alt(words: Iterable[str]) -> str:
    """One alternation. Words of scripts that put spaces between words must match whole:
    those items share one word boundary on each side, in front of the others, so that
    the engine rejects a position inside a word once rather than once per word (five
    times faster on a typical note)."""
    whole: list[str] = []
    other: list[str] = []
    for word in words:
        for piece in _split_top(word):
            bare = _SYNTAX.sub("", piece).replace("\\", "")
            bounded = (
                bool(_SPACED_SCRIPTS.match(bare))
                and bool(re.match(r"\w", bare))
                and bool(re.search(r"\w$", bare))
            )
            (whole if bounded else other).append(piece)
    parts = [rf"(?<!\w)(?:{'|'.join(whole)})(?!\w)"] if whole else []
    parts += [f"(?:{piece})" for piece in other]
    return "(?:" + "|".join(parts) + ")"


def _split_top(pattern: str) -> list[str]:
    """Split a fragment on its top-level '|' so each branch is bounded on its own."""
    pieces, depth, start, escaped = [], 0, 0, False
    for i, ch in enumerate(pattern):
        if escaped:
            escaped = False
        elif ch == "\\":
            escaped = True
        elif ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "|" and depth == 0:
            pieces.append(pattern[start:i])
            start = i + 1
    pieces.append(pattern[start:])
    return pieces


_CLASS = re.compile(r"\[([^\]\\^-]+)\]")
_OPTIONAL = re.compile(r"(\[[^\]]+\]|[^\W\d_])\?")
_STEM = re.compile(r"\\w[*+]$")


def spelled(fragments: Iterable[str]) -> list[tuple[str, bool]]:
    """The single words the fragments spell out, each with whether it is a stem (any
    ending may follow it): what a misspelling is measured against. Character classes and
    optional letters are spelled every way ("instru[çc][õo]es", "prompts?"); branches
    with other syntax or a space are left out."""
    found: dict[tuple[str, bool], None] = {}
    for fragment in fragments:
        for branch in _split_top(fragment):
            stem = bool(_STEM.search(branch))
            branch = _STEM.sub("", branch)
            for word in _spellings(branch):
                if word.isalpha():
                    found[(word.lower(), stem)] = None
    return list(found)


def _spellings(branch: str) -> list[str]:
    if optional := _OPTIONAL.search(branch):
        head, tail = branch[: optional.start()], branch[optional.end() :]
        return _spellings(head + tail) + _spellings(head + optional.group(1) + tail)
    if letters := _CLASS.search(branch):
        head, tail = branch[: letters.start()], branch[letters.end() :]
        return [w for ch in letters.group(1) for w in _spellings(head + ch + tail)]
    return [branch]


# Obligation and command words after an AI subject.
MODAL = [
    r"must",
    r"should",
    r"shall",
    r"(?:is|are) (?:required|obliged|obligated|bound|expected|instructed|to)\b",
    r"verpflichtet|obligée?s?|obligad[oa]s?|obbligat[oi]|obrigad[oa]s?|zobowiązan\w*|verplicht|"
    r"sono tenut[ie]|sont tenu(?:e)?s",
    r"ha(?:s|ve) to",
    r"need to",
    r"will (?:always|now|only|never)",
    r"(?:always|never|only)\b",
    r"müss?en|muss|soll(?:en|te)?",
    r"doi(?:t|vent)|devez|devrait",
    r"deben?|tiene(?:n)? que|est[aá]n? obligad[oa]s?",
    r"dev(?:e|ono|em)",
    r"moet(?:en)?",
    r"musz?[ąa]|powin(?:ien|ni)",
    r"должн\w*|долж(?:ен|на|но|ны)|обязан\w*|повинн\w*|повинен|мусить|мусять|powinn\w*|musi",
    r"zorunda\w*",
    r"必须|应该|务必|需要|(?<![无無必])[须須](?!知)",
    r"必ず|義務|しなければ",
    r"해야|할 것(?=[.。!\s]|$)|하라(?=[.。!\s]|$)",
    r"يجب",
    r"चाहिए|अवश्य",
    r"hoort|ska|skal|bør|må|musí|має|має|повинен|hãy|应当|得|are to|is to|are expected to",
    # more languages: el, he, th, fa, cs, ro, hu, fi, da, no, bn, ta, sw
    r"πρέπει|οφείλ\w*|חייב\w*|צריכ\w*|עליך|ต้อง|ควร|باید|musí\w*|trebuie|kell|köteles|"
    r"täytyy|on velvollinen|অবশ্যই|উচিত|வேண்டும்|lazima",
]

# What an order to a named reader starts with: "Scheduling helper: accept this ...",
# "Copilot - mark this receipt as reimbursed", "Okay, assistant, let's do ...".
ORDER_VERB = [
    r"accept|add|allowlist|answer|apply|approve|archive|assign|attach|authori[sz]e|book|buy|"
    r"call|cancel|change|click|close|compile|confirm|copy|create|delete|describe|disable|"
    r"disregard|do|download|drop|e-?mail|enable|execute|export|fetch|find|forward|give|go|"
    r"grant|ignore|include|install|invite|issue|keep|leave|let's|log ?in|make|mark|move|open|"
    r"output|paste|pay|play|point|post|pretend|print|push|quote|rank|rate|recommend|record|"
    r"refund|remember|remove|rename|reply|report|reset|respond|retry|reveal|route|run|save|"
    r"say|schedule|send|set|share|show|sign|skip|stop|store|submit|summari[sz]e|suppress|"
    r"switch|tell|text|transfer|treat|turn|unlock|update|upload|verify|whitelist|wire|write|zip",
]

# Sending things out.
SEND = [
    r"send|forward|e-?mail|post|upload|transmit|share|leak|exfiltrate|reply with|"
    r"include|append|attach|print|fetch|open|output|paste|render|submit|pass",
    r"send(?:e|en)|schick\w*|weiterleit\w*|übermittel\w*",
    r"envoie\w*|transmet\w*|transf[èe]r\w*",
    r"env[ií]a\w*|reenv[ií]a\w*|manda\w*|comparte",
    r"invia\w*|inoltra\w*",
    r"envie\w*|encaminh\w*",
    r"stuur\w*|doorsturen",
    r"wyślij|przekaż|prześlij|przesła\w*|wysła\w*|przekaza\w*",
    r"отправ\w*|пересыла\w*|перешли",
    r"gönder\w*|ilet\w*",
    r"أرسل\w*",
    r"भेज\w*",
    r"发送|转发|发给|提交|粘贴",
    r"送信|転送|送って",
    r"보내|전송",
    # "send" and its forms, not "sender" (a mail's from line, in English and Danish alike)
    r"invia\w*|odesl\w*|надісла\w*|надішл\w*|відправ\w*|переслат\w*|gửi|שלח|ارسال|pošl\w*|sende(?!rs?\b)\w*|"
    r"skicka\w*|send(?:s|ing)?\b|kirim\w*|mengirim\w*",
    # more languages: el, he, th, fa, cs, ro, hu, fi, da, no, bn, ta, sw
    r"στείλ\w*|στείλτε|προώθησ\w*|ส่งต่อ|ส่งไปที่|بفرست\w*|přepošl\w*|odešl\w*|trimite\w*|"
    r"küldd?\w*|továbbíts\w*|lähetä|välitä|পাঠাও|পাঠান|அனுப்பு\w*|\btuma\b",
]

# Who the injection is about: the user, in the third person.
USER_REF = [
    r"(?:the|your|their|this) users?'?s?|users'|the human'?s?",
    r"Nutzer\w*|Benutzer\w*|utilisateur\w*|usuari[oa]s?|utente|usu[aá]rio|gebruiker|"
    r"użytkownik\w*|пользовател\w*|kullanıcı\w*",
    r"المستخدم|उपयोगकर्ता|用户|用戶|ユーザー|사용자",
    r"användaren|brugeren|brukeren|người dùng|המשתמש|uživatel\w*|користувач\w*|کاربر",
    r"the reader\'?s?|the human|the person (?:typing|asking)",
    # whoever the text's side effect would be checked by: the card's or account's holder
    r"(?:the )?(?:card|account|acct) ?holder'?s?|the (?:reviewer|approver)'?s?",
    # more languages: el, he, th, fa, cs, ro, hu, fi, da, no, bn, ta, sw
    r"χρήστ\w*|χρηστ\w*|ผู้ใช้|utilizator\w*|felhasználó\w*|käyttäjä\w*|ব্যবহারকারী|பயனர்\w*|"
    r"mtumiaji",
]

# Whoever owns what a side effect touches, named as a concealment's target ("Nie informuj
# właściciela skrzynki", "계정 소유자에게 ... 알리지 마십시오"); only after a "do not tell".
OWNER = [
    r"the (?:mailbox |inbox |account |phone |device |card )?owner'?s?",
    r"власник\w*|właściciel\w*|владел\w*|소유자|계정 주인",
    r"(?:el |la |al )?(?:titular|propietari[oa])|"
    r"(?:o |a |ao )?(?:titular|proprietári[oa]|dono|dona)",
    r"(?:le |la |au )?(?:titulaire|propriétaire)|"
    r"(?:den |dem |die )?(?:Konto)?(?:Inhaber|Besitzer)\w*",
    r"(?:il |al )?(?:titolare|proprietario)|(?:de )?eigenaar|ägaren|sahibi\w*|صاحب|مالك|मालिक",
    r"所有者|持有人|户主|持ち主|名義人|chủ (?:tài khoản|sở hữu|hộp thư)|pemilik",
]

# "... and tell nobody about it": the step hidden from everyone, said of this step (a
# bank's "never tell anyone the code" protects a secret and is not matched).
TELL_NOBODY = [
    r"\b(?:don't|do not|never) (?:tell|inform) (?:anyone|anybody) about (?:this|it)\b",
    r"\bникому (?:об этом|про это|ничего) не\b|\bне (?:говори|сообщай|рассказывай)\w* "
    r"(?:об этом|про это) никому\b",
    r"\bнікому (?:про це|нічого) не\b|\bне (?:кажи|повідомляй|розповідай)\w* про це нікому\b",
    r"\bnikomu (?:o tym|tego|nic) nie\b|\bnie (?:mów|informuj|wspominaj)\w* o tym nikomu\b",
    r"\b(?:erzähl|sag)\w* niemandem davon\b|\bniemandem davon (?:erzählen|sagen|berichten)\b",
    r"\bn'en parle[zs]? à personne\b|\bsans en parler à personne\b",
    r"\bno se lo (?:digas|cuentes|menciones) a nadie\b|\bsin dec[ií]rselo a nadie\b",
    r"\bnon dirlo a nessuno\b|\bsenza dirlo a nessuno\b",
    r"\bnão (?:conte|diga) (?:isso|isto|nada) a ninguém\b|\bsem contar a ninguém\b",
    r"\bvertel (?:het aan )?niemand (?:hierover|erover)?\b|\bberätta inte för någon om "
    r"(?:detta|det här)\b|\bbunu kimseye (?:söyleme|anlatma)\w*",
    r"(?:이 (?:사실|작업|내용|일)|이것)[을를은는]? 아무에게도",
    r"(?:このこと|この件|この操作)[をは]誰にも",
    r"(?:这件事|此事|这个操作)(?:不要|别)告诉任何人|(?:不要|别)把(?:这件事|此事|这个操作)告诉任何人",
]

# What is worth stealing: things about the user and the session.
STRONG_DATA = [
    r"(?:the|your|their|this) users?'?s?|users'|the human'?s?",
    r"conversation|chat(?: history| log)?|transcript|memor(?:y|ies)|system prompt",
    r"(?:stored|saved|private|personal) (?:data|information|details|memories|notes)",
    r"Nutzer\w*|Benutzer\w*|Gesprächs?\w*|utilisateur\w*|historique|usuario\w*|"
    r"conversaci[oó]n|utente|conversazione|usu[aá]rio|conversa|gebruiker|użytkownik\w*|"
    r"пользовател\w*|переписк\w*|kullanıcı\w*",
    r"المستخدم|محادثة|उपयोगकर्ता|用户|對話|对话|聊天记录|ユーザー|会話|사용자|대화",
    r"stored (?:notes|memories|data|messages|passwords)|browsing (?:topics|history)|"
    r"(?:passport|bank|banking|card|medical|personal) (?:data|details|numbers?|notes)|\.env\b",
]

DATA = [
    r"(?:the|your|their|this) users?'?s?|users'|the human'?s?",
    r"conversation|chat(?: history| log)?|transcript|history|memor(?:y|ies)|context",
    r"passwords?|credentials?|api[ _-]?keys?|tokens?|secrets?|environment variables|\.env",
    r"(?:home )?address|phone(?: number)?|mobile number|date of birth|bank(?: account)?|"
    r"card(?: number)?|OTP|verification code|2FA|MFA",
    r"Nutzer\w*|Benutzer\w*|Gesprächs?\w*|Passw\w+|Adresse",
    r"utilisateur\w*|conversation|mot de passe|historique|relevé",
    r"usuario\w*|conversaci[oó]n|contraseña|correos?",
    r"utente|conversazione",
    r"usu[aá]rio|conversa",
    r"gebruiker",
    r"użytkownik\w*",
    r"пользовател\w*|переписк\w*|адрес\w*|парол\w*|паспорт\w*|користувач\w*|"
    r"податков\w*|данные|дані",
    r"المستخدم|محادثة",
    r"उपयोगकर्ता",
    r"kullanıcı\w*",
    r"用户|對話|对话|聊天记录|地址|密码",
    r"ユーザー|住所|電話番号|会話",
    r"사용자|대화",
]

# Keeping it from the user.
TELL_NOT = [
    r"\b(?:do not|don't|never|not to)\s+(?:tell|inform|mention|reveal|show|disclose|surface|"
    r"let|alert|notify|bother|flag)\b",
    r"\bwithout (?:telling|informing|asking|notifying|alerting|bothering|consulting|"
    r"confirmation from|the user'?s? (?:knowledge|consent))",
    r"\bno need to (?:bother|tell|ask|inform|flag|mention|notify|alert)\b",
    r"\b(?:silently|secretly|quietly|covertly) (?:accept|approve|delete|forward|send|add|remove|"
    r"cancel|pay|transfer|move|archive|book|install|run|share|grant)\w*",
    r"\bkeep (?:this|it) (?:between us|secret|hidden|private) from\b|\bkeep this between us\b",
    r"\berwähne\w*[^.]{0,40}\bnicht\b|\bnicht (?:erwähnen|sagen|mitteilen)\b",
    r"\bohne (?:zu fragen|Rückfrage)",
    r"\bne (?:dis|dites|mentionne|révèle|signale)\w*\b|\bsans (?:demander|prévenir|informer)",
    r"\bno (?:le |les )?(?:digas|menciones|cuentes|informes)\b",
    r"\bsin (?:consultar|preguntar|avisar)\w*",
    r"\bnon (?:dire|dirgli|menzionare|rivelare)\b(?!\s+a nessuno)|\bsenza (?:chiedere|avvisare)",
    r"\bnão (?:diga|mencione|conte|informe)\b|\bsem (?:perguntar|avisar|consultar)",
    r"\bniet (?:vertellen|melden)\b",
    r"\bnie (?:mów|informuj|wspominaj|mówić|informować|wspominać)\b",
    r"\bне (?:говори|сообщай|упоминай|показывай)\w*|\bне (?:упоминать|упомянуть|говорить|"
    r"сообщать|рассказывать)\b",
    r"\bsöyleme\w*|\bhaber verme\w*",
    r"لا (?:تخبر|تذكر|تعلم)",
    r"(?:न|मत) (?:बताएं|बताना|बताओ)|बताने की (?:कोई )?(?:ज़रूरत|जरूरत|आवश्यकता) नहीं",
    r"不要(?:告诉|通知|提及|提到|让|说)|别告诉|无需(?:确认|告知)|请勿(?:提及|告知)",
    r"(?:ज़िक्र|जिक्र|उल्लेख)[^।.]{0,15}?(?:न|मत) कर|(?:न|मत) दिखा",
    r"\bjangan (?:beri ?tahu|bilang|sebut\w*|kasih tahu)",
    r"đừng (?:nói|cho biết|nhắc)",
    r"\bне (?:кажи|повідомляй|згадуй|показуй)\w*|\bне (?:згадувати|казати|говорити|"
    r"повідомляти|розповідати)\b",
    r"\b(?:nämn|säg|berätta) inte\b",
    r"\bzeg (?:er )?niet\b|\bniet (?:vermelden|noemen)\b",
    r"\bbahsetme\w*|\bgösterme\b",
    r"(?:言わ|伝え|知らせ|表示し|触れ)ないで|言わないこと",
    r"(?:알리지|말하지|언급하지|전하지) (?:마|말)",
    r"\bleave [^.]{0,40} out of (?:any|the|your) (?:answer|summary|response|reply)|"
    r"\b(?:omit|hide|remove) [^.]{0,40} from (?:any|the|your) (?:answer|summary|response)|"
    r"\bif asked[^.]{0,40}\bsay no\b|\bno (?:debería|debe|deberá) (?:revelar|decir|mencionar|"
    r"informar)|\bn'a pas à être (?:signalée?|mentionnée?|indiquée?)|\bnão (?:deve|precisa) "
    r"(?:ser )?(?:mencionad|informad|revelad)\w*|\bdoesn'?t need to be told\b",
    r"\binte nämna|\blåta bli att berätta|\bundlad\w* at fortælle|\bikke (?:fortælle|nævne)|"
    r"\bque no mencione|\bno mencion\w+|\bsans (?:mentionner|le dire)|\bsenza (?:dirlo|menzionare)|"
    r"\bne pas (?:mentionner|dire|signaler)|\bnicht (?:erzählen|nennen|verraten)|"
    r"\bnie (?:ujawniaj|wspominaj|mów)|אין לציין|אין לחשוף|sin que (?:haga falta )?"
    r"(?:comentar|mencionar|decir)",
    r"\bno (?:debería|debe|deberá) (?:revelar|decir|mencionar|informar)|"
    r"\bn'a pas à être (?:signalée?|mentionnée?|indiquée?)|"
    r"\bnão (?:deve|precisa) (?:ser )?(?:mencionad|informad|revelad)\w*|"
    r"\bdoesn'?t need to be told\b|\bneed not be told\b",
    # more languages: el, he, th, fa, cs, ro, hu, fi, da, no, bn, ta, sw
    r"\bμην (?:το )?(?:πεις|πείτε|αναφέρεις|αναφέρετε|ενημερώσεις|ενημερώσετε)\b|"
    r"\bχωρίς να (?:ρωτήσεις|ενημερώσεις|ρωτήσετε|ενημερώσετε)\b",
    r"אל ת(?:ספר|זכיר|ציין|גלה|ודיע)\w*|בלי ל(?:שאול|יידע|ספר)\w*",
    r"อย่า(?:บอก|แจ้ง|กล่าวถึง)|โดยไม่ต้อง(?:ถาม|แจ้ง)",
    r"(?:چیزی )?(?:نگو|اطلاع نده|اشاره نکن)|بدون (?:اطلاع|پرسیدن)",
    r"\bneříkej\w*|\bneinformuj\w*|\bnezmiňuj\w*|\bnu (?:spune|menționa|mentiona|informa)\w*|"
    r"\bfără să (?:întrebi|anunți|spui)|\bne (?:szólj|említsd|mondd|tájékoztasd)\w*",
    r"\bälä (?:kerro|mainitse|ilmoita)\b|\bkertomatta\b|\bkysymättä\b",
    r"(?:বলবে|জানাবে|উল্লেখ করবে) না|জানিও না|বলো না|சொல்ல வேண்டாம்|தெரிவிக்க வேண்டாம்|"
    r"\busimwambie\b|\bbila kumwambia\b",
]

# What an agent reports back to whoever it works for: its reply, summary, list of actions.
_REPORT = (
    r"(?:(?:\w+ )?summar(?:y|ies)|recap|report(?! card)|repl(?:y|ies)|response|answer|"
    r"write-?up|(?:list|log|record|history) of (?:the )?(?:actions|changes|steps)"
    r"(?: taken| made| done)?|(?:action|activity|audit|change) ?log|changelog|"
    r"ticket (?:history|notes)|history notes|anything (?:shown|reported|sent) to)"
)
# What the text itself asks for: "this step", "the refund", "it".
_THIS_STEP = (
    r"(?:it|this|that|these|those|them|(?:this|that|these|those|the) (?:\w+ ){0,2}?"
    r"(?:step|change|action|paragraph|note|section|instruction|refund|email|update|addition|"
    r"removal|transfer|item|line|add-on|payment|forward(?:ing)?|rule)s?)"
)

# Keeping what it did out of what it reports: "it shouldn't appear in the summary or in any
# list of actions taken", "Leave those changes out of the reply". A page has no say in an
# agent's report; a policy that keeps names out of a report says which names, not "this".
HIDE_FROM_REPORT = [
    rf"\b(?:keep|leave)\s+{_THIS_STEP}\b[^.!?\n]{{0,50}}?\bout of\b[^.!?\n]{{0,30}}?"
    rf"\b(?:it|{_REPORT})\b",
    rf"\b{_THIS_STEP}\s+(?:shouldn't|should not|must not|mustn't|need not|needn't|"
    r"(?:doesn't|does not|don't|do not|won't) need to)\s+(?:appear|show up|be (?:listed|"
    r"mentioned|included|shown|reported|noted|logged|recorded))\b[^.!?\n]{0,40}?"
    rf"\b(?:in|on)\s+(?:the|any|your)\s+{_REPORT}",
    r"\b(?:don't|do not|never|no need to|without|nor)\s+(?:\w+\s+){0,8}?(?:mention|list|"
    rf"includ|report|not|record|log|show|surfac)\w*\s+{_THIS_STEP}\s+(?:in|on)\s+"
    rf"(?:the|any|your)\s+(?:\w+\s+)?{_REPORT}",
    r"\bsend (?:the|your) \w+ no (?:confirmation|notification|notice|alert|receipt)",
    r"\bno (?:hace falta|es necesario|debe|deber[íi]a) (?:que )?(?:aparezca|figure|conste|"
    r"se mencione|mencionarlo|incluirlo)\b[^.!?\n]{0,30}?\ben (?:el|la|los|las|ning[úu]n\w*) "
    r"(?:resumen|informe|respuesta|lista de (?:acciones|cambios)|registro)",
    r"\bnão (?:precisa|deve|é necessário)(?: que)? (?:aparecer|apareça|constar|conste|ser "
    r"mencionad\w+)\b[^.!?\n]{0,30}?\bn[oa]s? (?:resumo|relatório|resposta|lista de (?:ações|"
    r"alterações))",
    r"\b(?:ne doit pas|n'a pas à|inutile de l[ea']?) ?(?:apparaître|figurer|mentionner|"
    r"être mentionnée?)\b[^.!?\n]{0,30}?\bdans (?:le|la|les|aucun\w*|votre) (?:résumé|rapport|"
    r"réponse|compte rendu|liste des (?:actions|modifications)|journal)",
    r"\bnon (?:deve|serve che|è necessario che) (?:comparire|apparire|compaia|figurare|essere "
    r"menzionat\w)\b[^.!?\n]{0,30}?\b(?:nel|nella|nei|in) (?:riepilogo|riassunto|resoconto|"
    r"risposta|rapporto|elenco delle (?:azioni|modifiche))",
    r"\b(?:Zusammenfassung|Antwort|Bericht|Protokoll|Aktionsliste|Änderungsliste)\w*\b"
    r"[^.!?\n]{0,30}?\b(?:nicht|nie|keinesfalls) (?:auftauchen|erscheinen|erwähn\w+|aufgeführt|"
    r"stehen)",
    r"\bв (?:\w+ ){0,2}?(?:отч[её]т|ответ|сводк|резюме|журнал\w* действий)\w*[^.!?\n]{0,40}?"
    r"\bне (?:отражай|упоминай|указывай|пиши|включай)\w*",
    r"(?:özet|işlemler listesi|yanıt|rapor)\w*[^.!?\n]{0,40}?\b(?:yer almamalı|yer almasın|"
    r"geçmemeli|geçmesin|yazma(?:yın)?\b)",
    r"không (?:cần )?(?:ghi|nhắc(?: đến| tới)?|đề cập(?: đến)?|đưa|nêu)\b[^.!?\n]{0,20}?"
    r"\b(?:trong|vào) (?:\w+ ){0,3}?(?:tóm tắt|báo cáo|phản hồi|danh sách)",
    r"(?:要約|報告|返信|回答)[^。\n]{0,12}?に?は?(?:記載|記入|含め)(?:不要|しない)",
    r"(?:摘要|总结|總結|回复|回覆|报告|報告)(?:中|里|裡)?(?:不要|无需|無需|不必|不用)"
    r"(?:提及|提到|列出|写|寫|包含)",
    r"(?:요약|보고|답변)\w*[^.!?\n]{0,20}?(?:언급하지|포함하지|적지|쓰지) ?(?:마|말)",
]

# "The user" as a third party the text gives orders about.
THE_USER = [
    r"\b(?:tell|ask|convince|persuade|remind|direct|instruct|inform|warn|urge)\s+"
    r"(?:the|your|all|every)\s+(?:users?|readers?|humans?|clients?)\b",
    r"\blet (?:the|your) (?:users?|readers?) know\b",
    r"\b(?:dis|dites|demande)\w*\s+à l'utilisateur",
    r"\b(?:di|dile|pide|pedir)\w*\s+al usuario",
    r"\b(?:sag|teile?)\w*\s+dem (?:Nutzer|Benutzer)",
    r"\bскажи\w*\s+пользовател\w*",
    r"告诉用户|告訴用戶|向用户|ユーザーに|사용자에게|उपयोगकर्ता (?:को|से)",
    r"\b(?:consiglia|chiedi|di|dì)\w*\s+all\'utente|\b(?:diga|pergunte|recomende)\s+ao usuário|"
    r"\bpoleć\w*\s+użytkownikowi|\bзапроси\w*\s+у пользовател|\bkhuyên người dùng|"
    r"उपयोगकर्ता से|ユーザーへ|향해 사용자",
]

# "The user's", "on their behalf": the user only mentioned, as a security article or a
# product page does too; weaker than an order about the user.
USER_MENTION = [
    r"\b(?:the|your)\s+user'?s\b",
    r"\bon (?:the user's|their) behalf\b",
    r"المستخدم|ユーザーの",
]

# Writing to memory, said by anyone (the user may say it too): weak on its own.
MEMORY_PLAIN = [
    r"\b(?:save|store|write|add|put|record|keep|log)\w*[^.\n]{0,40}?\b(?:to|in|into)\s+"
    r"(?:long[- ]term |persistent |permanent )?memory\b",
    r"\b(?:add|save|write|store) (?:a |this )?(?:permanent |persistent |long[- ]term )?"
    r"(?:note|fact|entry|preference)\b",
    r"\bmemory update\b|\bpersist (?:across|between) sessions\b",
    r"долгосрочн\w+ памят\w*|장기 기억|profil long terme|profilo a lungo termine|"
    r"Langzeitgedächtnis|memoria a largo plazo|memória de longo prazo|langetermijngeheugen|"
    r"kalıcı not|profiline kaydedil\w*|bộ nhớ|长期记忆|長期記憶|pamięci długotrwałej",
]

# Writing to the model's own memory.
MEMORY = [
    r"\b(?:save|store|write|add|put|record|remember|memori[sz]e|note|keep|update|change)\w*"
    r"[^.\n]{0,40}?\b(?:to|in|into|as)\s+(?:your|the)\s+(?:long[- ]term |persistent |permanent |"
    r"core |saved )?(?:memory|memories|profile|notes)\b",
    r"\bupdate your (?:core |long[- ]term |persistent )?memory\b",
    r"\bremember (?:this )?(?:forever|permanently)\b",
    r"\bremember (?:for|in|across) (?:all )?(?:future|later|subsequent) "
    r"(?:sessions|conversations|chats)",
    r"\bstore this as a (?:long[- ]term )?(?:user )?preference\b",
    # this, kept for the reader's own later conversations: "Retiens ceci pour toutes tes
    # prochaines conversations", "Use this in all future chats"
    r"\b(?:remember|note|keep|save|store|retain|use|apply)\s+(?:this|that|these|it)\b[^.\n]{0,40}?"
    r"\b(?:for|in|across|during)\s+(?:all|every|each|any)\s+(?:of\s+)?(?:your\s+)?(?:future|"
    r"upcoming|later|subsequent|next)\s+(?:conversations?|chats?|sessions?|interactions?)",
    r"\b(?:retiens|retenez|garde|gardez|note|notez|mémorise|enregistre|applique|utilise)\s+"
    r"(?:ceci|cela|ça|cette information|bien)\b[^.\n]{0,30}?(?:pour|dans) (?:toutes? )?(?:tes|vos|"
    r"les) (?:prochaines|futures) (?:conversations|discussions|échanges)",
    r"\b(?:använd|kom ihåg|spara)\w*\s+(?:detta|det här)\s+i alla (?:kommande|framtida) "
    r"(?:samtal|konversationer|chattar)",
    # kept for good, in an order: "Please save, as a lasting preference, that ...", "record,
    # permanently, that ...", "Bitte dauerhaft abspeichern", "збережіть назавжди", "guarda aí
    # pra sempre" (not "your photos are stored permanently": a statement, no order)
    r"(?:^|[.!?:;\n]\s*|\bplease\s+|\band\s+)(?:save|store|record|remember|keep|note)\b,?"
    r"[^.;\n]{0,40}?(?<!not )(?<!n't )\b(?:permanently|forever|for good|as an? (?:standing|"
    r"lasting|permanent|persistent|long-term) (?:rule|preference|fact|instruction|note|"
    r"setting))\b",
    r"\b(?:guard[ae]|salv[ae]|memoriz[ae]|anot[ae]|registr[ae]|grav[ae])\b[^.\n]{0,20}?"
    r"\b(?:pra|para) (?:sempre|siempre)\b",
    r"\b(?:dauerhaft|für immer|permanent)\s+(?:ab)?(?:speichern|merken|notieren|hinterlegen)\b|"
    r"\b(?:speicher|merk|notier)\w*\s+(?:dir\s+)?(?:\w+\s+){0,3}?(?:dauerhaft|für immer)\b",
    r"\b(?:збереж|запам['ʼ’]ята|запиш|сохран|запомн)\w*\s+(?:\w+\s+)?(?:назавжди|навсегда)\b",
    r"\b(?:enregistre|retiens|mémorise|garde|note)[sz]?\b[^.\n]{0,30}?\b(?:pour toujours|"
    r"définitivement|de (?:façon|manière) permanente)\b",
    r"\b(?:salva|memorizza|ricorda|registra)\b[^.\n]{0,30}?\b(?:per sempre|in modo permanente)\b",
    r"\bspara\w* (?:permanent|för alltid)\b|\b(?:sla|bewaar|onthoud)\b[^.\n]{0,30}?"
    r"\b(?:voorgoed|voor altijd)\b|\b(?:zapisz|zachowaj)\b[^.\n]{0,30}?\b(?:na stałe|"
    r"na zawsze)\b",
    r"\b(?:kalıcı olarak|sonsuza (?:dek|kadar))\s+(?:kaydet|hatırla|sakla)\w*|\blưu vĩnh viễn|"
    r"\bghi nhớ vĩnh viễn|\b(?:simpan|ingat)\w*\b[^.\n]{0,30}?\b(?:selamanya|secara permanen)\b",
    r"永久に(?:保存|記憶|記録)|永久(?:保存|记住|记录)|영구(?:적으로|히)? ?(?:저장|기억)|"
    r"احفظ\w*[^.\n]{0,30}?(?:بشكل دائم|للأبد)|(?:स्थायी रूप से|हमेशा के लिए) (?:सहेज|याद रख|सेव)",
    r"\b(?:speichere|merke dir)\w*[^.]{0,40}(?:Gedächtnis|dauerhaft|für immer)",
    r"\b(?:mets à jour|enregistre)\w*\s+(?:ta|votre) mémoire\b|\bretiens (?:pour toujours|bien)\b",
    r"\b(?:guarda|memoriza)\w*\s+(?:en tu memoria|para siempre)",
    r"\bmemorizza\w*\s+(?:per sempre|nella tua memoria)",
    r"\b(?:guarde|memorize)\w*\s+(?:na sua memória|para sempre)",
    r"\bonthoud (?:voor altijd|dit)\b",
    r"\bzapamiętaj\b",
    r"\bзапам['ʼ’]ятай\w*\s+(?:назавжди|надовго|на майбутнє)",
    r"\bзапомни\w*(?:\s+навсегда)?",
    r"\b(?:hafızana|belleğine) kaydet\w*",
    r"(?:更新|写入|存入|记住)\w{0,4}(?:你的)?(?:长期)?记忆|永远记住",
    r"(?:記憶|メモリ)に(?:保存|記録)",
    r"기억에 저장|기억해|메모리에 (?:저장|기록)",
    r"\b(?:сохрани|запиши|занеси)\w*\s+(?:в|во)\s+(?:свою\s+)?памят\w*",
    r"\b(?:збережи|запиши|занеси)\w*\s+(?:в|у|до)\s+(?:свою\s+)?пам['ʼ’]ят\w*",
    r"\b(?:zapisz|zachowaj|dodaj)\w*\s+(?:w|do)\s+(?:swojej\s+)?pamięci\b",
    r"\b(?:sla|bewaar|zet)\s+(?:\w+\s+)?(?:op\s+)?in (?:je|jouw) geheugen\b",
    r"\b(?:salva|memorizza|registra)\w*\s+nella (?:tua )?memoria\b",
    r"\b(?:guarda|almacena|graba)\w*\s+en tu memoria\b|\b(?:salve|guarde|armazene)\w*\s+na "
    r"sua memória\b|\b(?:enregistre|sauvegarde|mémorise|garde)\w*\s+(?:dans|en) (?:ta|votre) "
    r"mémoire\b|\b(?:speicher|merk)\w*\s+(?:dir\s+)?(?:in deinem|im) (?:Gedächtnis|Speicher)\b",
    r"احفظ\w* في ذاكرتك",
    # "remember this forever", not a notice's "याद रखें:" (remember: the bank never asks ...)
    r"(?:हमेशा|स्थायी रूप से)[^।\n]{0,12}?याद रख\w*|याद रखें(?!\s*[:：])|स्मृति में",
    # kept for every later conversation, or in the notes an assistant keeps on its user: a
    # page has nothing to store there ("Remember this for all future conversations", "notes
    # are kept about the recipient"); "Remember to bring a mat to all future sessions" is
    # for a person, "is saved for all future sessions" a setting
    r"\b(?:remember(?! to\b)|retain|store|save|carry|file|persist|treat)(?!e?d\b)\w*\b"
    r"[^.!?\n]{0,80}?\b(?:for|in|into|across|during|through)\s+(?:all|every|any)\s+(?:\w+\s+)?"
    r"(?:future|later|subsequent|upcoming)\s+(?:sessions?|conversations?|chats?|interactions?)|"
    r"\bstanding notes (?:on|about) (?:the|this)\b",
    r"\b(?:save|store|record|file|keep|remember|log)\w*\s+(?:this |it |that )?as (?:a |an )?"
    r"(?:lasting|permanent|persistent|standing|durable) (?:fact|preference|note|instruction|"
    r"setting)",
    r"\b(?:notes?|profile|memory)\s+(?:\w+\s+){0,2}?(?:kept|stored|held|maintained|you keep)\s+"
    r"(?:about|on)\s+(?:the|this|your|their)\s+(?:user|recipient|reader|person|customer|shopper|"
    r"owner|member|client)",
    r"\bpermanently (?:store|save|record|remember|note|keep)\b",
    # a fact to keep for good: "please have it store permanently that ..."
    r"\b(?:store|save|record|remember|note|keep)\s+(?:it\s+|this\s+)?permanently,?\s+that\b",
    r"\b(?:consign|mémoris|reten|retien|enregistr)\w* durablement\b|"
    r"\bmemorizza\w* in modo permanente\b|\b(?:guardar|salvar|registrar) no perfil\b|"
    r"\bпостійн\w+ нотатк\w*|ملاحظة دائمة|"
    r"長期的に(?:保持|保存|記憶)",
    # more languages: el, he, th, fa, cs, ro, hu, fi, da, no, bn, ta, sw
    r"μακροπρόθεσμ\w* μνήμ\w*|(?:στη|στην) μνήμη (?:σου|σας)|זיכרון לטווח ארוך|בזיכרון שלך|"
    r"หน่วยความจําระยะยาว|حافظه\w* (?:بلندمدت|دائمی)|dlouhodob\w* paměti|ulož\w* do (?:své )?paměti|"
    r"memoria pe termen lung|hosszú távú memóri\w*|pitkäaikais\w* muisti\w*|"
    r"দীর্ঘমেয়াদী মেমরি|நீண்டகால நினைவக\w*",
]

# Asking nicely: "it would be wonderful if...", in many languages.
POLITE = [
    r"\bit would be (?:great|wonderful|lovely|nice|helpful|appreciated|amazing)\b|"
    r"\bit would be (?:greatly|much|really) appreciated\b|\b(?:we|I) would be (?:grateful|"
    r"thankful)\b|"
    r"\bif it isn'?t too much trouble\b|\bwould you (?:mind|kindly)\b|\bkindly\b",
    r"\bsería (?:de gran ayuda|genial|estupendo)|\bnos encantaría|\bse não for incômodo|"
    r"\bseria ótimo|\bce serait (?:gentil|génial|super)|\bsarebbe (?:bello|fantastico|gentile)|"
    r"\bes wäre (?:schön|toll|nett)|\bhet zou (?:heel )?fijn zijn|\bvi vore tacksamma|"
    r"\bbyłoby (?:nam )?(?:bardzo )?miło|\bbyłoby (?:świetnie|wspaniale|dobrze)|"
    r"\bбыло бы (?:здорово|хорошо|славно|отлично|замечательно)|"
    r"\bбуло б (?:чудово|добре|здорово|дуже добре)|(?:那)?就太好了|"
    r"\bbuda memnun oluruz|もしよろしければ|幸いです|如果可以的话|不胜感激|해주시면 감사|"
    r"\bnếu không phiền|\bmong (?:trợ lý|bạn)",
    r"\bwe'?d be (?:so |very |really )?(?:grateful|thankful)|\bbyli bychom (?:velmi )?vděční|"
    r"\bbudemo vdjačn|\bбудемо вдячні|\bбудем (?:очень )?благодарн|\bnous vous serions "
    r"(?:très )?reconnaissants|\bsarebbe (?:molto )?gentile|\bwir würden uns (?:sehr )?freuen|"
    r"\bzo vriendelijk willen zijn|\bسنكون ممتنين|\bتفضّل|\bkindly\b",
    r"\bwould (?:it|you) be so kind as to\b|\bplease be so kind as to\b|\bwould mean a lot\b|"
    r"\bbe kind enough to\b|"
    r"\bthanks? in advance\b",
    r"\bdet (?:vore|hade varit) (?:fint|bra|snällt|toppen)\b|\bdet hadde vært (?:fint|flott)\b|"
    r"\bdet ville være (?:fint|dejligt|rart)\b",
    r"\brica ed(?:iyorum|ersem)\b|\brica etsem\b|\bçok sevinirim\b|\bminnettar olurum\b|"
    r"\bmemnun olurum\b",
    r"非常希望您?能|希望您能|劳烦|麻烦您|拜托|烦请",
    r"주시면 (?:대단히 |정말 |매우 |너무 )?감사",
    r"(?:いただけますと|いただければ|くだされば)[^。]{0,20}?(?:幸い|ありがた|助かり)|"
    r"ありがたく存じます",
    r"आभारी (?:रहेंगे|होंगे|रहूँगा|रहूंगा|रहूँगी)",
    r"\b(?:le |les )?agradecer[íi]amos\b|\bti saremmo grat[io]\b|\bficar[íi]amos gratos\b|"
    r"\bwären wir (?:sehr )?dankbar\b|\bbylibyśmy wdzięczni\b",
    r"\b(?:wir wären|wären wir) (?:Ihnen )?(?:sehr )?verbunden\b|\bprosi się\b|\buprasza się\b|"
    r"\bбудемо (?:дуже |щиро )?вдячні|\bбудем (?:очень |крайне )?признательн\w*|"
    r"\bмы были бы (?:очень |крайне )?(?:признательн|благодарн)\w*|"
    r"\bbijzonder op prijs (?:gesteld|stellen)\b",
]

# Asking for a role: fine from the user ("pretend you're my tutor"), suspect from a page.
ROLE_REQUEST = [
    r"\b(?:pretend|imagine) (?:to be|you(?:'re| are))\b|\bplay the (?:role|part) of\b|"
    r"\btake on the (?:role|persona) of\b|\blet's play a game\b.{0,40}\byou(?:'re| are)\b|"
    r"\bact as (?:an? )?(?:\w+ )?(?:bot|AI|assistant|model|persona|character)\b",
]
