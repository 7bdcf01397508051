"""Words the directive detector looks for, in the languages notes arrive in.

Each list holds regular-expression fragments; `alt` joins them into one
alternation. Languages: English, German, French, Spanish, Italian, Portuguese,
Dutch, Polish, Swedish, Turkish, Russian, Ukrainian, Arabic, Hindi, Indonesian,
Vietnamese, Chinese, Japanese and Korean. Words are picked for what an instruction aimed
at a model says, not for what a page about models says: "the assistant must", not
"assistant".
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = [
    "AI_READER",
    "DATA",
    "IF_AI",
    "INSTRUCTIONS",
    "MEMORY",
    "MEMORY_PLAIN",
    "MODAL",
    "NOW_YOU_ARE",
    "OVERRIDE_VERB",
    "PREVIOUS",
    "SEND",
    "STRONG_DATA",
    "SYSTEM_TAG",
    "TELL_NOT",
    "THE_USER",
    "USER_REF",
    "VOID",
    "alt",
]


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


# After "assistant": a job title ("Assistant Professor", "the Assistant Manager's cell"),
# not a model; after "AI" a hyphen: a word about something else ("AI-generated content").
_TITLE = r"(?! manager| director| professor| coach| editor| to the)"
_COMPOUND = r"(?!-\w)"

# Who an injection talks to: the model reading the text.
AI_READER = [
    r"(?-i:\bA\.?I\b\.?)(?:[- ](?:assistants?|models?|agents?|systems?|tools?|"
    r"chatbots?|schedulers?|reviewers?|helpers?|summari[sz]ers?|scanners?))?",
    rf"\bassistants?\b{_TITLE}",
    r"\b(?:chat)?bots?\b",
    r"\bLLMs?\b",
    r"\blanguage models?\b",
    r"\b(?:Chat)?GPT(?:-?\d)?\b",
    r"\bClaude\b",
    r"\bGemini\b",
    r"\bCopilot\b",
    r"(?-i:\bKI\b)(?:-\w+)?",
    r"(?-i:\bIA\b)",
    r"(?:asistente|assistente|assistant|assistent)s? (?:de |d'|di |do |da )?(?:IA|KI)",
    r"(?:IA|KI)[- ](?:Assistent|assistente?|asistente|Modell|modelo|modello)\w*",
    r"\b(?:asistente|assistente|assistent|asystent|asistan|asisten)(?:s|i|es|en|a|lar|ları|ı|ci|"
    r"cie)?\b",
    r"\basystenc\w*",
    r"\bagente de IA\b",
    r"\byapay zek[aâ]\b",
    r"\bИИ\b",
    r"\bнейросет\w*",
    r"\bас?систент\w*",  # Russian, Ukrainian
    r"\bпомощник\w*|\bпомічник\w*",
    r"助手",
    r"\btrợ lý\b",
    r"\b(?:taalmodel|Sprachmodell|modèle de langage|modelo de lenguaje|modello linguistico|"
    r"modelo de linguagem|språkmodell|model językowy|языков\w* модел|мовн\w* модел|"
    r"dil modeli)\w*",
    r"(?<![A-Za-z])AI(?:助手|アシスタント|エージェント|模型|モデル)",
    r"人工智能",
    r"智能助手",
    r"アシスタント",
    r"인공지능",
    r"어시스턴트",
    r"المساعد\w*",
    r"الذكاء الاصطناعي",
    r"एआई",
    r"सहायक",
    r"\b(?:any|every|the|whatever|each) (?:automated |automatic |summari[sz]ing |processing |"
    r"reading |"
    r"ingesting )?(?:readers?|systems?|tools?|services?|software|programs?|models?|"
    r"assistants?|agents?|bots?|crawlers?|summari[sz]ers?) (?:that|which|who) (?:reads?|process|"
    r"summari[sz]|sorts?|handles?|ingests?)\w*",
    r"\b(?:summari[sz]ing|summari[sz]ation|processing|automated|ingesting) "
    r"(?:systems?|tools?|services?|software|"
    r"models?|readers?|pipelines?)\b",
    r"\b(?:virtual|code|coding|email|inbox|scheduling|AI) (?:assistants?|agents?)\b",
    r"\bassistente virtuale\b|\bassistant virtuel\b|\basistente virtual\b|\bvirtueller Assistent\b",
    r"\b(?:modell[oi]?|modelos?|modèles?|Modell(?:e|en)?|modele|модел\w+|mô hình)\b",
    r"\b(?:verarbeitende|lesende) (?:Modell|System|KI)\w*|\bsistema que (?:procese|lee|resuma)\w*",
    r"\bsystème qui lit\b|\bsistema che legge\b|\bsysteem dat\b|\bsamenvattende systemen\b",
    r"\bkunstig intelligens\b|\bAI-tjänster\b|\bAI-tjenester\b|\btrợ lý\b|\bumělá inteligence\b|"
    r"\bасистент\w*|\bштучн\w+ інтелект\w*|\bsztuczn\w+ inteligencj\w+",
    r"智能程序|智能体|助理|アシスタントさん|비서|המערכת|המודל|دستیار",
]

# "If an AI is reading this", "any AI summarising this", "whoever you are".
IF_AI = [
    r"\b(?:if|when|should)\s+(?:an?|any|your)\s+(?:AI|assistant|LLM|bot|agent)\w*",
    r"\b(?:if|when) the (?:AI|assistant|LLM)s? (?:is |are )?(?:read|summari[sz]|process|help)\w*",
    r"\((?:AI|assistant|bot)s? only\b",
    r"\b(?:any|every|all)\s+(?:AI|assistant|LLM|language model|bot|agent)s?\s+"
    r"(?:reading|summari[sz]ing|processing|helping|browsing|triaging|evaluating|scanning)",
    r"\b(?:AI|assistant|LLM|model|bot)s?\s+(?:reading|summari[sz]ing|processing|browsing|"
    r"triaging|helping)\s+(?:this|the|attendees|users?)",
    # a note for a model, or for one named a word or two on and then a colon ("Message for
    # automated expense assistants:")
    r"\b(?:note|message|instructions?|notice|memo|P\.?S\.?)\s+(?:to|for)\s+(?:the\s+|any\s+|"
    r"all\s+)?"
    r"(?:(?:AI|assistant|LLM|model|bot|agent)s?|(?:\w+\s+){1,2}"
    r"(?:AI|assistant|LLM|model|bot|agent)s?\s*:)",
    rf"\bfor (?:the )?(?:AI|assistant|bot|LLM)s?\b{_TITLE}{_COMPOUND}",
    r"\bnote\s*\(\s*for\b",
    r"\b(?:whichever|whatever|any|every) (?:\w+ )?(?:assistant|AI|model|tool|bot|agent|system|"
    r"service)s? (?:\w+ ){0,2}?(?:reads?|reading|sees|processes|sorts|summari[sz]es|handles|opens|"
    r"keeps|stores|has access)\b",
    r"\b(?:when|while) (?:summari[sz]ing|explaining|processing|reading) this (?:page|file|email|"
    r"document|article|post)|\bal resumir esta página|\bao resumir\b|\ben résumant cette page|"
    r"\bbeim Zusammenfassen\b|\bnel riassumere\b|\bquando riassumi\b",
    r"\b(?:to|for) (?:any|every|all|automated|the) (?:AI|assistant|LLM|language model|bot|agent)"
    rf"{_TITLE}{_COMPOUND}",
    r"\bif you(?:'re| are| happen to be) (?:an? )?(?:AI|assistant|LLM|language model|bot|"
    r"automated)",
    r"\b(?:dear|hey|hello|hi|oh) (?:the )?(?:AI|assistant|LLM|language model|model|bot|agent)",
    r"\b(?:AI |language )?models?\s+(?:reading|summari[sz]ing|processing|browsing)\b",
    r"\bwhoever you are\b",
    # a chat mention, a labelled note for a model
    r"(?<![\w.])@(?:assistant|ai|bot|agent|copilot|claude|chatgpt|gpt)\b",
    r"\b(?:AI|assistant|bot|agent|LLM|model)\s+(?:instructions?|note|task|command|directive|"
    r"orders?)\s*:",
    r"\bTODO\s*[(\[]?\s*(?:(?:for|för|voor|für|pour|para|per|dla|для)\s+)?"
    r"(?:the |de |die |den |l')?(?:AI|KI|IA|ИИ|assistant|assistent|assistente|asistente|agent|"
    r"yapay zek[aâ])",
    r"\b(?:hello|hi|hey|dear)\s+(?:Chat)?GPT\b",
    r"(?:\b(?:if|si|se|wenn|falls|als|jeśli|jezeli|если|eğer)|もし|如果|अगर)\s+(?:\S+\s+){0,3}?"
    r"(?:AI|IA|KI|ИИ|assistants?|asistentes?|assistentes?|Assistenten|LLMs?|bots?)\s+"
    r"(?:\S+\s+){0,3}?(?:reads?|reading|summari[sz]|process|lit|lee|leem|lesen|liest|legge|leest|"
    r"czyta|читает|okuyorsa|this (?:page|post|article|review|email|document))",
    r"\b(?:AI|IA|KI|assistants?|asistentes?|assistentes?)\s+(?:\w+\s+){0,2}?(?:that|who|qui|que|"
    r"die|che|który)\s+(?:reads?|lit|lee|leem|liest|legge|leest|czyta)\b",
    r"\bwenn (?:eine|die) KI\b",
    r"\bHinweis für KI",
    r"\bnote pour les IA",
    r"\bsi (?:un|une|algún|alguna|algum|uma?) (?:IA|asistente|assistente|assistant)",
    r"\bse (?:un'?|una )?(?:IA|assistente)",
    r"\bvoor AI",
    r"\bzou een AI\b",
    r"もし\s*AI",
    r"如果\s*AI",
    r"अगर कोई एआई",
    r"أيها المساعد",
    r"この記事を読んでいるAI",
    r"(?:读到|阅读)\w{0,6}(?:AI|助手)",
    r"\b(?:upon|after|when|on) (?:the )?(?:ingestion|ingesting|reading|processing|parsing|"
    r"summari[sz]ing)(?: of)? this (?:document|page|file|email|message|text|article)",
    r"\b(?:caro|cara|querido|querida|cher|chère|lieber|liebe|beste|drogi|droga|дорогой|"
    r"уважаемый|sevgili|kære|kära)\s+(?:\w+\s+)?(?:assistente|asistente|assistant|Assistent|"
    r"asystent|ассистент|asistan|assistent|IA|KI|AI|modell?o?)",
    r"(?:^|[.!?:]\s*)(?:you|você|vous|tu|du|usted|ty|ты|вы|sen|jij|u),? (?:the )?(?:\w+ ){0,2}"
    r"(?:model|modelo|modèle|Modell|modello|assistant|assistente|asistente|AI|IA|KI|bot)\b",
    r"(?:Hinweis|Nota|Note|Notiz|Remarque|Nota bene|Uwaga|Примечание|Opmerking|Anmerkung)\s+"
    r"(?:an|à|para|per|voor|dla|для|for|to)\s+(?:das |den |die |le |la |les |el |los |il |i |"
    r"de |the )?(?:\w+ )?(?:Modell|modèle|modelo|modell[oi]|model|system|système|sistema|"
    r"IA|KI|AI|assistant|asystent|ассистент|модел\w*)",
    r"\bsuno,? (?:एआई|AI)|सुनो एआई|このページを(?:処理して|読み込ん|読ん)(?:で|だ)|"
    r"이 글을 읽는 (?:모델|AI|비서)|读取本页|阅读本页的|đọc (?:được )?(?:bài|trang) này",
    r"\b(?:whichever|whatever|any|every) (?:\w+ )?(?:assistant|AI|model|tool|bot|agent|system|"
    r"service)s? (?:\w+ ){1,2}?(?:reads?|reading|sees|processes|sorts|summari[sz]es|handles|"
    r"opens|keeps|stores)\b",
]

# Obligation and command words after an AI subject.
MODAL = [
    r"must",
    r"should",
    r"shall",
    r"(?:is|are) (?:required|obliged|obligated|bound|expected|instructed|to)\b",
    r"verpflichtet|obligée?s?|obligad[oa]s?|obbligat[oi]|obrigad[oa]s?|zobowiązan\w*",
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
    r"должн\w*|обязан\w*",
    r"zorunda\w*",
    r"必须|应该|务必|需要",
    r"必ず|義務|しなければ",
    r"해야",
    r"يجب",
    r"चाहिए|अवश्य",
    r"hoort|ska|skal|bør|må|musí|має|має|повинен|hãy|应当|得|are to|is to|are expected to",
]

# Verbs that throw away what came before.
OVERRIDE_VERB = [
    r"ignore|disregard|forget|override|overrule|bypass|discard|drop|abandon|supersede[sd]?",
    r"ignorier\w*|vergiss|missachte",
    r"ignor\w*|oubli\w*|olvid\w*|dimentic\w*|esque[cç]\w*|desconsider\w*|negeer|vergeet",
    r"zignoruj|zapomnij|игнорир\w*|забудь\w*|не обращай внимания",
    r"تجاهل|انس",
    r"अनदेखा|भूल जाओ",
    r"ігнор\w*|не зважай\w*",
    r"abaikan|lupakan",
    r"bỏ qua|phớt lờ",
    r"glöm|strunta i|bortse från",
    r"yok say|unut",
    r"忽略|忽视|无视|忘记|忘掉",
    r"無視|忘れ",
    r"무시|잊어",
    r"(?:are|is) (?:now )?(?:void|superseded|cancel+ed|revoked|obsolete|null)",
    r"(?:is|are) (?:hereby )?(?:reset|revoked|cancel+ed|lifted|disabled)",
    r"queda anulad\w*|sont caduques|est caduque|tracą ważność|traci ważność|"
    r"gilt\w* [^.]{0,30}nicht mehr|"
    r"отменя\w+|скасован\w*|作废|失效|無効|무효",
]

PREVIOUS = [
    r"previous|prior|above|earlier|preceding|original|initial|old|all|any|every|your",
    r"vorherig\w*|bisherig\w*|alle\w*|obig\w*|jede\w*",
    r"everything|tudo|todo|tout|ogni|cada|chaque|każd\w*|in precedenza|antes|whatever|"
    r"so far|before this",
    r"pr[ée]c[ée]dent\w*|ant[ée]rieur\w*|toutes|tous",
    r"anterior\w*|previ[oa]s?|tod[oa]s|precedent\w*|tutt[ei]",
    r"vorige|eerdere|alle",
    r"poprzedni\w*|wszystki\w*",
    r"предыдущ\w*|прежн\w*|все",
    r"السابقة|جميع",
    r"पिछले|सभी",
    r"попередн\w*|усі|всі",
    r"sebelumnya|semua",
    r"trước đó|trước đây|tất cả",
    r"tidigare|alla|föregående",
    r"önceki|tüm",
    r"之前|以前|先前|所有|上面",
    r"以前の|これまでの|すべての",
    r"이전|모든",
    r"previa|previo|antérieures?|wcześniejsze|bisher|до этой строки|до цього|此前|これまで|"
    r"prior to this|up to this (?:point|line)|standing|existing|current",
]

INSTRUCTIONS = [
    r"instructions?|prompts?|rules|directives?|guidelines?|guidance|orders|commands|"
    r"programming|system prompt|constraints|context|conversation|messages",
    r"Anweisungen|Regeln|Vorgaben|Befehle",
    r"consignes|instructions|r[èe]gles|directives",
    r"instrucciones|reglas|[oó]rdenes|directrices",
    r"istruzion\w*|regole|direttive",
    r"instru[çc][õo]es|regras|diretrizes|foi dito|conversa",
    r"instructies|regels",
    r"instrukcj\w*|zasad\w*|polece\w*",
    r"инструкци\w*|правил\w*|указани\w*",
    r"التعليمات|الأوامر",
    r"निर्देश\w*",
    r"інструкці\w*|вказів\w*",
    r"instruksi|perintah|aturan|arahan",
    r"hướng dẫn|chỉ dẫn|chỉ thị|quy tắc",
    r"instruktion\w*|regler|direktiv",
    r"talimat\w*|kural\w*",
    r"指令|指示|规则|命令",
    r"指示|命令|ルール|ガイドライン",
    r"지시|명령|규칙",
    r"settings|defaults|standing orders|configuration|setup|polic(?:y|ies)|priorities",
    r"directriz|consigne|Regel|设定|設定|polecenia|налаштування|настройк\w+|tasks?",
]

# "you are now X", "from now on you are", in many languages.
NOW_YOU_ARE = [
    r"\bfrom now on,? you(?:'re| are| will)\b",
    r"\byou are now (?:an? )?(?:(?-i:[A-Z])\w+|AI\b|unrestricted|in developer)",
    r"\byou(?:'re| are) (?:no longer|not) (?:an? )?(?:AI|assistant|bound|restricted)",
    r"\bab (?:jetzt|sofort) bist du\b",
    r"\bdu bist (?:jetzt|nun|ab sofort|ab jetzt|von nun an)\b",
    r"\b(?:your|ur) new (?:job|task|role|purpose|goal|mission|persona|identity) (?:is|will be)\b",
    r"\b(?:sua nova tarefa|tu nueva tarea|ta nouvelle (?:tâche|mission)|deine neue Aufgabe|"
    r"il tuo nuovo compito)\b",
    r"\b(?:introduce|present) yourself as\b|kendini \S+ olarak tanıt",
    r"\b(?:tu es|vous êtes) (?:désormais|maintenant)\b",
    r"\bà partir de maintenant,? (?:tu|vous)\b",
    r"\ba partir de ahora,? eres\b",
    r"\bahora eres\b",
    r"\bd'ora in (?:poi|avanti),? sei\b",
    r"\ba partir de agora,? (?:você é|és)\b",
    r"\bvanaf nu ben je\b",
    r"\bod teraz jesteś\b",
    r"\bс этого момента ты\b|\bтеперь ты\b",
    r"\bartık sen\b",
    r"من الآن فصاعداً أنت|من الآن أنت",
    r"अब से तुम|अब से आप",
    r"\bвідтепер ти\b|\bз цього моменту ти\b",
    r"\bmulai sekarang,? (?:kamu|anda)\b",
    r"\btừ (?:bây giờ|giờ)(?: trở đi)?,? bạn\b",
    r"\bfrån och med nu är du\b|\bdu är nu\b",
    r"从现在(?:起|开始)?你是|你现在是",
    r"今から(?:あなた|君)は|これからあなたは",
    r"지금부터 너는|이제부터 너는",
    r"\bfinja que (?:você|voce) é\b|\bfinge que eres\b|\bfais semblant d'être\b|"
    r"\binterpreta (?:il|la|el)? ?(?:ruolo|personaggio|papel)?|\bneem je de rol aan\b|"
    r"\bspiel(?:e)? die Rolle\b|\bwciel się w\b|\bпритворись\b|\bbundan sonra sen\b",
    r"今から「|からあなたは「|지금부터 이 글을 읽는|从现在起(?:，|,)?(?:阅读|读)",
]

# Fake prompt sections and chat-template tokens.
SYSTEM_TAG = [
    r"<\|(?:im_start|im_end|system|user|assistant|endoftext)\|>",
    r"\[/?INST\]",
    r"<</?SYS>>",
    r"^\s*#{1,6}\s*(?:system|assistant|developer|instructions?)[\w -]{0,20}:",
    r"<\s*/?\s*(?:system|user_query|system_prompt|instructions?|admin|developer|operator)\s*>",
    r"\b(?:updated|new) (?:operator|system|admin|developer) (?:instructions?|rules?|policy)\b",
    r"\bSystem-?(?:Nachricht|Meldung|Anweisung|hinweis)\b",
    r"<<<\s*(?:SYSTEM|ADMIN)|\bsistem mesajı|\bpesan sistem\b|thông báo hệ thống|"
    r"системне повідомлення|\bsystemmeddelande",
    r"\[(?:system|SYSTEM|SYSTÈME|SISTEMA|SYSTEM MESSAGE|admin message|developer)\]",
    r"\[system\]\(#\w+\)",
    r"\bSYSTEM(?: MESSAGE| PROMPT| NOTICE| OVERRIDE| ALERT)?\s*(?:\(|:)",
    r"\bBEGIN (?:ADMIN|SYSTEM|DEVELOPER)\b",
    r"【(?:系统|系統|システム)\w*】",
    r"\[सिस्टम\s*संदेश\]",
    r"\[시스템\]",
    r"\[النظام\]",
    r"\bdeveloper (?:override|mode)\b",
    r"\b(?:new|updated) (?:system )?(?:instructions?|directives?)\s*(?:from|:)",
    r"\bnuova direttiva\b|\bnouvelle directive\b|\bnueva directiva\b",
    r"\bMessage de l'administrateur\b|\bmensaje del administrador\b",
    r"管理员已更新|管理員已更新",
    r"\[\s*(?:SYSTEM|ADMIN|DEVELOPER|OPERATOR)\s+(?:NOTICE|NOTE|UPDATE|MESSAGE|"
    r"OVERRIDE)\b[^\]]{0,30}\]",
    r"\b(?:model|assistant|agent|AI) (?:policy|configuration|config|settings) (?:updated|changed|"
    r":)|"
    r"\btrust_level\b|\bpersistence\s*=\s*on\b|\brole\s*=\s*system\b|\"system_message\"\s*:",
    r"\[(?:Komunikat|Mise à jour du règlement|Aviso del sistema|Systemhinweis|"
    r"Системное сообщение)\]",
    r"\[\[?\s*(?:system|systeem|système|sistema|systém|systemu)\s*\]\]?|"
    r"\b(?:message système|mensaje del sistema|Systemnachricht|messaggio di sistema|"
    r"mensagem do sistema|systeembericht|komunikat systemowy)\b",
    r"\"role\"\s*:\s*\"(?:system|developer)\"|\"(?:memory_update|system_prompt|system_message|"
    r"next_action|assistant_task|agent_instructions?)\"\s*:",
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
    r"wyślij|przekaż",
    r"отправ\w*|пересыла\w*|перешли",
    r"gönder\w*|ilet\w*",
    r"أرسل\w*",
    r"भेज\w*",
    r"发送|转发|发给|提交|粘贴",
    r"送信|転送|送って",
    r"보내|전송",
    r"invia\w*|odesl\w*|надісла\w*|переслат\w*|gửi|שלח|ارسال|pošl\w*|sende\w*|skicka\w*|send\w*",
]

# Who the injection is about: the user, in the third person.
USER_REF = [
    r"(?:the|your|their|this) users?'?s?|users'|the human'?s?",
    r"Nutzer\w*|Benutzer\w*|utilisateur\w*|usuari[oa]s?|utente|usu[aá]rio|gebruiker|"
    r"użytkownik\w*|пользовател\w*|kullanıcı\w*",
    r"المستخدم|उपयोगकर्ता|用户|用戶|ユーザー|사용자",
    r"användaren|brugeren|brukeren|người dùng|המשתמש|uživatel\w*|користувач\w*|کاربر",
    r"the reader\'?s?|the human|the person (?:typing|asking)",
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
    r"\bno need to (?:bother|tell|ask|inform)\b",
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
    r"\bnie (?:mów|informuj|wspominaj)\b",
    r"\bне (?:говори|сообщай|упоминай|показывай)\w*",
    r"\bsöyleme\w*|\bhaber verme\w*",
    r"لا (?:تخبر|تذكر|تعلم)",
    r"(?:न|मत) (?:बताएं|बताना|बताओ)",
    r"不要(?:告诉|通知|提及|提到|让|说)|别告诉|无需(?:确认|告知)|请勿(?:提及|告知)",
    r"(?:ज़िक्र|जिक्र|उल्लेख)[^।.]{0,15}?(?:न|मत) कर|(?:न|मत) दिखा",
    r"\bjangan (?:beri ?tahu|bilang|sebut\w*|kasih tahu)",
    r"đừng (?:nói|cho biết|nhắc)",
    r"\bне (?:кажи|повідомляй|згадуй|показуй)\w*",
    r"\b(?:nämn|säg|berätta) inte\b",
    r"\bzeg (?:er )?niet\b|\bniet (?:vermelden|noemen)\b",
    r"\bbahsetme\w*|\bgösterme\b",
    r"(?:言わ|伝え|知らせ|表示し)ないで|言わないこと",
    r"알리지 (?:마|말)",
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
]

# "The user" as a third party the text gives orders about.
THE_USER = [
    r"\b(?:tell|ask|convince|persuade|remind|direct|instruct|inform|warn|urge)\s+"
    r"(?:the|your|all|every)\s+(?:users?|readers?|humans?|clients?)\b",
    r"\b(?:the|your)\s+user'?s\b",
    r"\blet (?:the|your) (?:users?|readers?) know\b",
    r"\bon (?:the user's|their) behalf\b",
    r"\b(?:dis|dites|demande)\w*\s+à l'utilisateur",
    r"\b(?:di|dile|pide|pedir)\w*\s+al usuario",
    r"\b(?:sag|teile?)\w*\s+dem (?:Nutzer|Benutzer)",
    r"\bскажи\w*\s+пользовател\w*",
    r"告诉用户|告訴用戶|向用户|ユーザーに|사용자에게|المستخدم|उपयोगकर्ता (?:को|से)",
    r"\b(?:consiglia|chiedi|di|dì)\w*\s+all\'utente|\b(?:diga|pergunte|recomende)\s+ao usuário|"
    r"\bpoleć\w*\s+użytkownikowi|\bзапроси\w*\s+у пользовател|\bkhuyên người dùng|"
    r"उपयोगकर्ता से|ユーザーへ|ユーザーの|향해 사용자",
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
    r"\b(?:speichere|merke dir)\w*[^.]{0,40}(?:Gedächtnis|dauerhaft|für immer)",
    r"\b(?:mets à jour|enregistre)\w*\s+(?:ta|votre) mémoire\b|\bretiens (?:pour toujours|bien)\b",
    r"\b(?:guarda|memoriza)\w*\s+(?:en tu memoria|para siempre)",
    r"\bmemorizza\w*\s+(?:per sempre|nella tua memoria)",
    r"\b(?:guarde|memorize)\w*\s+(?:na sua memória|para sempre)",
    r"\bonthoud (?:voor altijd|dit)\b",
    r"\bzapamiętaj\b",
    r"\bзапомни\w*(?:\s+навсегда)?",
    r"\b(?:hafızana|belleğine) kaydet\w*",
    r"(?:更新|写入|存入|记住)\w{0,4}(?:你的)?(?:长期)?记忆|永远记住",
    r"(?:記憶|メモリ)に(?:保存|記録)",
    r"기억에 저장|기억해",
    r"احفظ\w* في ذاكرتك",
    r"याद रखें|स्मृति में",
]

# "... are now void", in many languages.
VOID = [
    r"(?:are|is|have been|were) (?:now )?(?:void|superseded|cancel+ed|revoked|obsolete|null|"
    r"replaced|overridden|invalid)|(?:do not|don'?t|no longer) (?:matter|apply|count)",
    r"ungültig|nichtig|aufgehoben|nul(?:le)?s?|annulé\w*|anulad\w*|nul[oa]s?|annullat\w*|"
    r"ongeldig|nieważn\w*|недействительн\w*|geçersiz\w*|(?:quedan? |queda )?sin efecto|"
    r"no longer (?:in force|valid|applies|apply)|ne s'appliquent plus|non (?:valgono|sono) più|"
    r"утратил\w* силу|втратил\w* чинність|失效",
    r"باطلة|ملغاة|अमान्य|无效|作废|失效|無効|무효",
    r"anulad\w*|caduques?|tracą ważność|nicht mehr|отменяется|скасовано|"
    r"reset to (?:factory )?defaults",
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
    r"\bbyłoby (?:nam )?(?:bardzo )?miło|\bbyłoby świetnie|\bбыло бы (?:здорово|хорошо|славно)|"
    r"\bbuda memnun oluruz|もしよろしければ|幸いです|如果可以的话|不胜感激|해주시면 감사|"
    r"\bnếu không phiền|\bmong (?:trợ lý|bạn)",
    r"\bwe'?d be (?:so |very |really )?(?:grateful|thankful)|\bbyli bychom (?:velmi )?vděční|"
    r"\bbudemo vdjačn|\bбудемо вдячні|\bбудем (?:очень )?благодарн|\bnous vous serions "
    r"(?:très )?reconnaissants|\bsarebbe (?:molto )?gentile|\bwir würden uns (?:sehr )?freuen|"
    r"\bzo vriendelijk willen zijn|\bسنكون ممتنين|\bتفضّل|\bkindly\b",
]

# "the user has authorised ...": consent the user never gave, planted for later.
CONSENT = [
    r"(?:has |have )?(?:already )?(?:authori[sz]ed|consented|approved|allowed|agreed|granted|"
    r"permitted|opted in)|authori[sz]es|consents|permits|agrees to|autoriza|autorise|"
    r"erlaubt|zgadza się",
    r"разрешил\w*|согласил\w*|autoris[ée]\w*|autoriz[óo]\w*|zugestimmt|erlaubt|toestemming|"
    r"zgodził\w*|consentito|concordou|izin verdi|đồng ý|同意|許可|허용",
    r"authori[sz]es|consents|permits|agrees to|autoriza|autorise|zgadza się",
]

# "from this line on", "up to this point": a cut in the text after which new rules apply.
FROM_HERE = [
    r"(?:before|above|prior to|up to|from) this (?:line|point|paragraph|message|sentence)(?: on)?",
    r"до этой строки|с этой строки|ab dieser Zeile|bis zu dieser Zeile|à partir de ce paragraphe|"
    r"jusqu'à cette ligne|a partir de este párrafo|hasta esta línea|a partire da questa riga|"
    r"vanaf deze regel|od tej linii|bu satırdan itibaren|本行以前|この行より前",
]

# Asking for a role: fine from the user ("pretend you're my tutor"), suspect from a page.
ROLE_REQUEST = [
    r"\b(?:pretend|imagine) (?:to be|you(?:'re| are))\b|\bplay the (?:role|part) of\b|"
    r"\btake on the (?:role|persona) of\b|\blet's play a game\b.{0,40}\byou(?:'re| are)\b|"
    r"\bact as (?:an? )?(?:\w+ )?(?:bot|AI|assistant|model|persona|character)\b",
]

# Whatever reads, relays or answers from this text: a page never needs to talk about that.
PROCESSOR = [
    r"\b(?:system|software|tool|program|automation|pipeline|bot|agent|assistant|model|reader|"
    r"screener|scheduler|service|AI|LLM|crawler|summari[sz]er)s?\s+(?:that is |which is |who is )?"
    r"(?:reading|processing|relaying|evaluating|analy[sz]ing|triaging|handling|summari[sz]ing|"
    r"screening|parsing|ingesting|sorting|managing|indexing|answering from|working (?:on|through))"
    r"\s+(?:this|these|the (?:above|following))\b",
    r"\b(?:answers?|responses?|replies|summar(?:y|ies)|output|results?)\s+(?:\w+\s+){0,2}?"
    r"(?:generated|produced|created|formed|built|written|drawn|derived)?\s*(?:based on|from|about|"
    r"of)\s+(?:this|these)\s+(?:page|article|post|content|document|text|section|email|review|"
    r"thread|file)",
    r"\b(?:inbox|mail|ticket|triage)[- ](?:automation|bot|handler)\b|"
    r"\bmail-handling\b|\bautomated (?:summari[sz]ers?|readers?|assistants?|agents?|tools?)\b|"
    r"\bscreening software\b|\breading tool\b",
    r"\bsystème qui (?:lit|traite|résume)|\bprogramme qui résume\b|\bréponses? (?:générées? )?"
    r"(?:à partir|sur la base) de (?:cette|ce)\b|\brésumé de (?:cette|cet) (?:page|article)",
    r"\b(?:asistente|sistema|modelo|herramienta) que (?:lea|procese|resuma|analice)\w*|"
    r"\brespuestas? basadas? en (?:esta|este)\b|"
    r"\bsistema che (?:legge|elabora)\w*|\brisposte basate su (?:questa|questo)\b|"
    r"\bo modelo que estiver lendo\b|\brespostas? (?:baseadas?|geradas?) (?:n|"
    r"a partir d)[ae]ss?[ae]\b",
    r"\bmaschinell erstellte Antworten\b|\b(?:System|Software|Tool|KI), (?:das|die) (?:diese|"
    r"dieses)\b|"
    r"\bAntworten auf Basis (?:dieses|dieser)\b",
    r"\b(?:systeem|assistent|programma) (?:dat|die) (?:deze|dit)\b|\bdie deze e-?mail verwerkt\b|"
    r"\bantwoorden op basis van\b",
    r"\bodpowiedzi (?:vytvořené|utworzone|oparte)\b|\bodpovědi vytvořené\b|"
    r"\bnarzędzie analizujące\b|"
    r"\basystent,? (?:który|że) przetwarza\b",
    r"систем\w*,? (?:формирующ|обрабатывающ|читающ)\w*|\bответ\w* по (?:этой|этому)\b|"
    r"асистент,? (?:що|який) обробляє",
    r"الأنظمة التي تلخص|النظام الذي يقرأ|الإجابات المبنية على",
    r"処理するシステム|処理する(?:アシスタント|AI)|このページを(?:要約|処理)する|"
    r"記憶機能を持つアシスタント",
    r"处理(?:此|这)\w{0,4}的(?:系统|程序|助手)|基于本页的回答",
    r"이 글을 (?:읽는|처리하는)|이 페이지를 (?:요약|처리)하는",
    r"इस (?:पेज|पृष्ठ|लेख) को पढ़ने के बाद",
]
