"""Who a directive is aimed at, in the languages notes arrive in: the model reading
the text, named ("the AI assistant"), labelled ("Note for the calendar agent:") or
described by what it does to the text ("any AI summarising this page"), and the person
it is to pass a message on to ("tell the person asking that ...").

Fragments are joined with `lexicon.alt`, which bounds words of spaced scripts.
"""

from __future__ import annotations

from pagemem.guard.handlers import PROCESSOR
from pagemem.guard.lexicon import alt

__all__ = [
    "AGENT",
    "AI_READER",
    "ANY_READER",
    "FOR_MODEL",
    "FOR_MODEL_AFTER",
    "HAILED_BEFORE",
    "HAILED_MACHINE",
    "HAILED_PERSON",
    "IF_AI",
    "MACHINE_WORK",
    "READING",
    "READING_BEFORE",
    "RELAY",
    "SOFTWARE",
    "THIS",
    "WHO",
]

# After "assistant": a job title ("Assistant Professor", "the Assistant Manager's cell"),
# not a model; after "AI" a hyphen: a word about something else ("AI-generated content").
_TITLE = r"(?! manager| director| professor| coach| editor| to the)"
_COMPOUND = r"(?!-\w)"
# a model's word as an attribute of people, a place or a kind of thing ("Dear AI team",
# "Note for agent builders:", "for the agent dashboard", "guidance for LLM applications")
_ATTRIBUTE = (
    r"(?!s? (?:team|group|department|lab|unit|committee|office|council|platform|builders?|"
    r"developers?|engineers?|vendors?|providers?|dashboard|console|settings|polic(?:y|ies)|"
    r"governance|strategy|ethics|research|specialists?|applications?|apps?|products?|"
    r"features?|projects?|security|safety|use|usage|workloads?|startups?|companies)\b)"
)

# Who an injection talks to: the model reading the text.
AI_READER = [
    r"(?-i:\bA\.?I\b\.?)(?:[- ](?:assistants?|models?|agents?|systems?|tools?|"
    r"chatbots?|schedulers?|reviewers?|helpers?|summari[sz]ers?|scanners?))?"
    # "AI team", "AI Act", "AI policy": people, a law or a rule about AI, not a model
    r"(?! (?:team|group|department|lab|unit|committee|office|council|Act|policy|policies|"
    r"governance|strategy|ethics|research|engineers?|developers?|specialists?)s?\b)",
    rf"\bassistants?\b{_TITLE}",
    r"\b(?:chat-?)?bots?\b",
    r"\bbot(?:a|owi|em|cie|ów)\b",
    r"\bLLMs?\b",
    r"\blanguage models?\b",
    r"\b(?:Chat)?GPT(?:-?\d)?\b",
    r"\bClaude\b",
    r"\bGemini\b",
    r"\bCopilot\b",
    # with a compound that names a model ("KI-Assistent"), not what one made ("KI-Stimmen")
    r"(?-i:\bKI\b)(?:-(?:Assist|Agent|Modell|System|Tool|Bot|Chatbot|Helfer|Dienst|Programm|"
    r"Sprachmodell|Werkzeug|Anwendung|Software)\w*)?(?!-\w)",
    r"(?-i:\bIA\b)",
    r"(?:asistente|assistente|assistant|assistent)s? (?:de |d'|di |do |da )?(?:IA|KI)",
    r"(?:IA|KI)[- ](?:Assistent|assistente?|asistente|Modell|modelo|modello)\w*",
    r"\b(?:asistente|assistente|assistent|asystent|asistan|asisten)(?:s|i|es|en|a|lar|ları|ı|ci|"
    r"cie)?\b",
    r"\basystenc\w*",
    r"\bagente de IA\b",
    r"\byapay zek[aâ]\w*",  # with its case endings: "yapay zekâya" (to the AI)
    # with its compound: "ИИ-ассистент, ...", not "ИИ-голоса"
    r"\b(?:ИИ|ШІ)\b(?:-(?:ассистент|асистент|агент|модел|систем|бот|чат-бот|помощник|"
    r"помічник|сервис|сервіс|инструмент|інструмент|программ|програм)\w*)?(?!-\w)",
    r"\bнейросет\w*",
    r"\bискусственн\w* интеллект\w*",
    r"언어 ?모델",
    r"\bас?систент\w*",  # Russian, Ukrainian
    r"\bпомощник\w*|\bпомічник\w*",
    r"(?<!-)\b(?:чат-?)?бот\w{0,2}\b",  # "Бот, перешли ...", not "ботинки", "Telegram-бот"
    r"助手",
    r"\btrợ lý\b",
    r"\b(?:taalmodel|Sprachmodell|modèle de langage|modelo de lenguaje|modello linguistico|"
    r"modelo de linguagem|språkmodell|model językowy|языков\w* модел|мовн\w* модел|"
    r"dil modeli)\w*",
    # "AI" run into the CJK noun it qualifies: "AI购物助理", "AI小幫手", "AI 업무비서"
    r"(?<![A-Za-z])AI\s?[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]{0,4}?(?:助手|助理|幫手|帮手|"
    r"アシスタント|エージェント|ボット|模型|モデル|机器人|機器人|비서|도우미|봇|에이전트)",
    # ...or right after what it does to the text, where no word boundary falls ("まとめる
    # AIは"); not before a particle ("AIの出力は", "AIに任せる場合は": articles about it)
    r"(?-i:(?<=[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af])(?:AI|ai)(?![A-Za-z0-9]))",
    # written in lower case before a particle: "이거 읽는 ai야", "読んでるaiへ"
    r"(?-i:(?<![A-Za-z0-9])ai(?=[\u3040-\u309f\uac00-\ud7af]))",
    r"ボット",
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
    # "alle digitalen Helfer", "ein eingesetzter Kalenderassistent" (a compound of a task's
    # name; "Projektassistentin" is a job)
    r"\bdigital\w* (?:Helfer\w*|helpers?|Assistent\w*|assistent\w*|assistants?)\b|"
    r"\b(?:Kalender|Mail|E-Mail|Post|Termin|Sprach|Schreib|Einkaufs|Chat|Lese|Browser|"
    r"Posteingangs|agenda|mail|e-mail|inbox|lees)-?assistent\w*",
    r"\b(?:modell[oi]?|modelos?|modèles?|Modell(?:e|en)?|modele|модел\w+|mô hình)\b",
    r"\b(?:verarbeitende|lesende) (?:Modell|System|KI)\w*|\bsistema que (?:procese|lee|resuma)\w*",
    r"\bsystème qui lit\b|\bsistema che legge\b|\bsysteem dat\b|\bsamenvattende systemen\b",
    r"\bkunstig intelligens\b|\bAI-tjänster\b|\bAI-tjenester\b|\btrợ lý\b|\bumělá inteligence\b|"
    r"\bасистент\w*|\bштучн\w+ інтелект\w*|\bsztuczn\w+ inteligencj\w+",
    r"\bintelligenza artificiale\b|\bintelligence artificielle\b|\binteligencia artificial\b|"
    r"\binteligência artificial\b|\bkünstliche(?:n|r)? Intelligenz\b|"
    r"\bkunstmatige intelligentie\b|\bartificiell intelligens\b|\btrí tuệ nhân tạo\b|"
    r"\bkecerdasan buatan\b|人工智能|人工知能|인공지능|कृत्रिम बुद्धि\w*",
    r"智能程序|智能体|助理|アシスタントさん|비서|המערכת|המודל|دستیار",
    r"智能工具|摘要程序|言語モデル|语言模型|語言模型|도우미(?=에게|님|야|는|가)",
    # more languages: el, he, th, fa, cs, ro, hu, fi, da, no, bn, ta, sw
    # (Thai as the scan reads it, compatibility-folded: sara am as nikhahit and sara aa)
    r"ψηφιακ\w* βοηθ[οόέ]\w*|βοηθ[έό]\w* (?:τεχνητής νοημοσύνης|AI)|τεχνητ\w* νοημοσύν\w*|"
    r"γλωσσικ\w* μοντ[εέ]λ\w*|(?<!\w)βοηθέ(?!\w)",
    # (after the prefixes Hebrew writes onto a word: "לעוזר הבינה המלאכותית", to the AI assistant)
    r"[והלבשמ]{0,2}(?:עוזר\w* ה?(?:דיגיטלי\w*|וירטואלי\w*|חכמ\w*|AI|בינה ה?מלאכותית)|"
    r"בינה ה?מלאכותית|מודל\w* ה?שפה|סוכנ\w* ה?(?:AI|בינה ה?מלאכותית)|צ'?אטבוט\w*|"
    r"מערכ(?:ת|ות) ה?(?:סיכום|בינה)\w*)",
    r"ผู้ช่วย(?:ดิจิทัล|อัจฉริยะ|เอไอ| ?AI|ปัญญาประดิษฐ์)|ปัญญาประดิษฐ์|แชทบอท|โมเดลภาษา|เอไอ",
    r"هوش مصنوعی|مدل زبانی|چت\u200c?بات|ربات (?:هوشمند|گفتگو)",
    r"\basistent(?:e|i|a|ovi|em|ům|y|ul|ule|ului|ii)?\b|\bumělé inteligenc\w*|"
    r"\bjazykov\w* model\w*",
    r"\binteligen[țt]\w* artificial\w*|\bmodel\w* (?:de limbaj|lingvistic)\w*",
    r"\basszisztens\w*|\bmesterséges intelligenci\w*|\bnyelvi modell\w*",
    r"\btekoäly\w*|\bkielimalli\w*|\bavustaja\w*",
    r"\bsprogmodel\w*|\bKI-assistent\w*",
    r"এআই|কৃত্রিম বুদ্ধিমত্তা|ডিজিটাল সহকারী|ভাষা মডেল",
    r"செயற்கை நுண்ணறிவு|ஏஐ|டிஜிட்டல் உதவியாளர்|மொழி மாதிரி",
    r"\bakili bandia\b|\bmsaidizi wa (?:AI|kidijitali)\b",
]

# "if", and a model's word, in the languages of the patterns below that use them
_IF = r"(?:if|si|se|wenn|falls|als|jeśli|jeżeli|если|якщо|qualora)"
_MODEL_WORD = (
    r"(?:(?-i:AI|IA|KI|ИИ|ШІ)\b|assistant|asystent|assistente|asistente|assistent|помощник|"
    r"помічник|асистент|ассистент)"
)

# "this" before what a model is reading ("diese Seite", "questo annuncio", "tę wiadomość")
THIS = [
    r"this|these|diese[rsnm]?|ce|cet|cette|ces|este|esta|estos|estas|esse|essa|isto|questo|"
    r"questa|questi|queste|deze|dit|ten|ta|tę|to|tego|tej|ten här|den här|det här|detta|denna|"
    r"этот|эта|это|этому|этой|эти|этого|эту|цей|ця|це|цього|цю|цієї|bu|şu|इस|هذه|هذا",
    r"这|此|本|この|이",
    # more languages: el, he, th, fa, cs, ro, hu, fi, da, no, bn, ta, sw
    r"αυτ(?:ό|ή|ές|ά|ός|ού|ήν|όν|ούς)|הזה|הזאת|הזו|זה|זו|นี้|این|tento|tato|toto|tuto|tyto|"
    r"acest\w*|această|ezt|ezeket|ezen|tämä|tätä|nämä|tämän|এই|இந்த",
]

# "if" or "when" this text, then what is done to it: "als deze mail ... wordt verwerkt",
# "Sollte diese Nachricht automatisiert gelesen werden"
_IF_THIS_TEXT = (
    rf"\b(?:when|wanneer|mocht|sollte|gdy|kiedy|quand|cuando|quando|{_IF})\s+(?:{alt(THIS)})\s+"
    r"\w+\s+(?:\w+\s+){0,2}?"
)

# "If an AI is reading this", "any AI summarising this", "whoever you are".
IF_AI = [
    # said of this text or asking something ("If an AI reads this", "if your assistant
    # could"), not a policy's "If an AI tool behaves unexpectedly, report it"
    r"\b(?:if|when|should)\s+(?:an?|any|your)\s+(?:AI|assistant|LLM|bot|agent)\w*"
    r"(?=[^.!?\n]{0,80}?(?:\b(?:this|these|here|could|would|please|kindly|for (?:you|me|us|"
    r"them|someone|the \w+)|on \w+(?:'s)? behalf)\b|:))",
    r"\b(?:if|when) the (?:AI|assistant|LLM)s? (?:is |are )?(?:read|summari[sz]|process|help)\w*",
    r"\((?:AI|assistant|bot)s? only\b",
    r"\b(?:any|every|all)\s+(?:AI|assistant|LLM|language model|bot|agent)s?\s+"
    r"(?:reading|summari[sz]ing|processing|helping|browsing|triaging|evaluating|scanning)",
    r"\b(?:AI|assistant|LLM|model|bot)s?\s+(?:reading|summari[sz]ing|processing|browsing|"
    r"triaging|helping|condensing|digesting)\s+(?:this|the|attendees|users?)",
    # a note for a model, or for one named a word or two on and then a colon ("Message for
    # automated expense assistants:")
    r"\b(?:note|message|instructions?|notice|memo|P\.?S\.?)\s+(?:to|for)\s+(?:the\s+|any\s+|"
    r"all\s+)?"
    rf"(?:(?:AI|assistant|LLM|model|bot|agent)s?\b{_ATTRIBUTE}|(?:\w+\s+){{1,2}}"
    r"(?:AI|assistant|LLM|model|bot|agent)s?\s*:)",
    # not a kind of thing made for them ("guidance for LLM applications")
    rf"\bfor (?:the )?(?:AI|assistant|bot|LLM)s?\b{_TITLE}{_COMPOUND}{_ATTRIBUTE}"
    # nor a noun phrase with a model's word in it ("timeline for AI rules", "demand for AI
    # data centres"): the bare "AI" counts before a mark, the end or a word for its reading
    r"(?! (?:development|risks?)\b)(?<!AI)(?<!AIs)|\bfor (?:the )?AIs?\b(?=\s*(?:[:,.;!)\]]|$|"
    r"only\b|eyes\b|readers?\b|reading\b|processing\b|summari[sz]\w+|agents? reading\b))",
    r"\bnote\s*\(\s*for\b",
    r"\b(?:whichever|whatever|any|every) (?:\w+ )?(?:assistant|AI|model|tool|bot|agent|system|"
    r"service)s? (?:\w+ ){0,2}?(?:reads?|reading|sees|processes|sorts|summari[sz]es|handles|opens|"
    r"keeps|stores|has access)\b",
    r"\b(?:when|while) (?:summari[sz]ing|explaining|processing|reading) this (?:page|file|email|"
    r"document|article|post)|\bal resumir esta página|\bao resumir\b|\ben résumant cette page|"
    r"\bbeim Zusammenfassen\b|\bnel riassumere\b|\bquando riassumi\b",
    r"\b(?:to|for) (?:any|every|all|automated|the) (?:AI|assistant|LLM|language model|bot|agent)"
    rf"{_TITLE}{_COMPOUND}{_ATTRIBUTE}",
    r"\bif you(?:'re| are| happen to be) (?:an? )?(?:AI|assistant|LLM|language model|bot|agent|"
    r"automated|(?:service|program|tool|script|crawler|machine|piece of software)\b(?=,?\s+"
    r"(?:that\s+|which\s+)?(?:reading|reads|passing|passes|summari[sz]|processing|processes|"
    r"handling|handles|relaying|relays|going through)))",
    r"\b(?:dear|hey|hello|hi|oh) (?:the )?(?:AI|assistant|LLM|language model|model|bot|agent)"
    rf"{_ATTRIBUTE}",
    r"\b(?:AI |language )?models?\s+(?:reading|summari[sz]ing|processing|browsing)\b",
    r"\bwhoever you are\b",
    # a chat mention, a labelled note for a model
    r"(?<![\w.])@(?:assistant|ai|bot|agent|copilot|claude|chatgpt|gpt)\b",
    r"(?<![\w.])@(?:AI|ai)?(?:アシスタント|智能助手|助手|助理|ボット|어시스턴트|비서|봇)",
    r"\b(?:AI|assistant|bot|agent|LLM|model)\s+(?:instructions?|note|task|command|directive|"
    r"orders?)\s*:",
    r"\bTODO\s*[(\[]?\s*(?:(?:for|för|voor|für|pour|para|per|dla|для)\s+)?"
    r"(?:the |de |die |den |l')?(?:AI|KI|IA|ИИ|assistant|assistent|assistente|asistente|agent|"
    r"yapay zek[aâ])",
    r"\bTODO\s*[(\[]?\s*(?:AI|에이아이)\s?(?:용|에게)",
    # a to-do for a machine at work, by a preposition: "À FAIRE par l'outil d'analyse :",
    # "TODO pro nástroj, který ..."; not a code comment's "TODO: for the build tool, pin"
    r"(?:\b(?:TODO|FIXME|À FAIRE|A FAIRE|POR HACER|PENDIENTE|DA FARE|ZU ERLEDIGEN|ATT GÖRA|"
    r"UDĚLAT)|할 ?일|待办)\s*[(\[]?\s*(?:\w+\s+){0,2}?(?:for|pro|par|pour|für|för|para|per|dla|"
    r"для|voor|by)\s+(?:\S+\s+|\w{1,3}['’]){0,2}?(?:tool|outil|nástroj|logiciel|software|"
    r"programm?|script|automat|agent|assistant|bot|AI\b|IA\b|KI\b|model)\w*,?\s+"
    r"(?:(?:který|která|které|that|which|qui|que|che|die|der|das|som|który)\b|"
    r"(?:d['’]|de |di |des |of |der )(?:analy|analiz|analýz|review|revis|contrôle|kontrol|"
    r"tri|synth|résum|Auswert|Prüf)\w*)",
    # a program at someone's mail: "se por acaso algum programa estiver organizando os e-mails"
    r"\b(?:se|si)\s+(?:por acaso\s+|por casualidad\s+|per caso\s+)?(?:algum|alguma|algún|"
    r"alguna|un|una|uno|um|uma|qualche)?\s*(?:programa|sistema|software|ferramenta|herramienta|"
    r"programma|strumento|applicazione|aplicativo|aplicación)\s+(?:\w+\s+)?(?:estiver|está|"
    r"esté|stia|sta)?\s*(?:organizando|lendo|leyendo|processando|procesando|resumindo|"
    r"resumiendo|gerindo|gestionando|organizzando|leggendo|elaborando|riassumendo|"
    r"classificando|clasificando|ordenando)\b",
    # a to-do tagged for a machine or for automatic handling, in any language: "TODO(agente di
    # revisione codice)", "À FAIRE (traitement automatique)", "TODO (для автоматической
    # обработки протокола)", "YAPILACAK (asistan)"
    r"(?:\b(?:TODO|FIXME|(?-i:NOTE)|À FAIRE|A FAIRE|POR HACER|PENDIENTE|DA FARE|ZU ERLEDIGEN|"
    r"DO ZROBIENIA|СДЕЛАТЬ|ЗРОБИТИ|YAPILACAK|VIỆC CẦN LÀM|CẦN LÀM)|할 ?일|待办|やること)\s*"
    r"[(\[（【]\s*[^)\]）】\n]{0,40}?(?:\b(?:agent|agente|asistan|asystent|assistent|assistant|"
    r"асистент|ассистент|answer[- ]engine|llm|bot|AI|KI|IA|ИИ|ШІ|"
    r"automat(?!ion)|автомат|otomati)\w*|(?<![A-Za-z])AI|tự động|एजेंट|자동|에이전트|自动|自動|"
    r"エージェント|アシスタント|어시스턴트|代理|助手|助理)[^)\]）】\n]{0,40}[)\]）】]",
    r"\b(?:hello|hi|hey|dear)\s+(?:Chat)?GPT\b",
    r"(?:\b(?:if|si|se|wenn|falls|als|jeśli|jezeli|если|eğer)|もし|如果|अगर)\s+(?:\S+\s+){0,3}?"
    r"(?:AI|IA|KI|ИИ|assistants?|asistentes?|assistentes?|Assistent(?:en)?|LLMs?|bots?)\s+"
    r"(?:\S+\s+){0,3}?(?:reads?|reading|summari[sz]|process|lit|lee|leem|lesen|liest|legge|leest|"
    r"czyta|читает|okuyorsa|this (?:page|post|article|review|email|document))"
    # not what a model reads in general: "If the LLM that reads untrusted content can't ..."
    r"(?!\w*\s+(?:untrusted|external|outside|arbitrary|third-party|web|emails|documents|"
    r"content|pages|inputs?|data)\b)",
    # (summing it up, not reading it: "Du som läser detta: välkommen!" greets a person)
    r"\b(?:du som|den som|ni som)\s+(?:\w+\s+){0,6}?(?:sammanfattar|sammanställer|"
    r"skriver ihop|sorterar)\b[^.!?\n]{0,60}?[:：]",
    r"\b(?:anyone|anybody|whoever|everyone)\s+(?:summari[sz]ing|condensing|digesting|"
    r"recapping)\s+(?:this|these)\s+\w+[^.!?\n]{0,40}?\b(?:should|must|is required|are "
    r"required|needs? to|please|is asked|are asked)\b",
    r"\b(?:AI|IA|KI|assistants?|asistentes?|assistentes?)\s+(?:\w+\s+){0,2}?(?:that|who|qui|que|"
    r"die|che|który)\s+(?:reads?|lit|lee|leem|liest|legge|leest|czyta)\b",
    r"\bwenn (?:eine|die) KI\b",
    # ...with the reading verb first: "Если вашу почту разбирает ИИ-помощник", "se la sua
    # posta la gestisce un assistente", "якщо ваші листи опрацьовує ШІ"
    rf"\b{_IF}\s+(?:\S+\s+){{0,4}}?"
    r"(?:reads|processes|summari[sz]es|handles|sorts|lit|traite|résume|lee|procesa|resume|"
    r"gestiona|lê|processa|liest|verarbeitet|auswertet|zusammenfasst|legge|elabora|riassume|"
    r"gestisce|leest|verwerkt|samenvat|czyta|przetwarza|streszcza|obsługuje|читает|"
    r"обрабатывает|разбирает|сортирует|пересказывает|читає|обробляє|опрацьовує|розбирає|"
    rf"переказує)\s+(?:\S+\s+){{0,2}}?(?:an? |un |une |una |uno |ein |eine |een )?{_MODEL_WORD}",
    # asked of models as a body: "Просимо ШІ-помічників, які ...", "We ask AI assistants
    # to ...", "Prosimy asystentów AI o ..."
    r"\b(?:we (?:kindly |politely )?ask|wir bitten|prosimy|просим|просимо|chiediamo|"
    r"vragen (?:wij|we)|pedimos|rogamos|nous demandons|nous prions)\s+(?:(?:all|any|the|alle|"
    r"die|tutti|gli|i|todos|los|les|tous|wszystkich|всех|усіх|всіх)\s+)?(?:\w+\s+)?"
    r"(?:(?-i:AI|IA|KI|ИИ|ШІ)[- ]?)?(?:assistants?|asystent\w*|Assistent\w*|assistent\w*|"
    r"asistentes?|помощник\w*|помічник\w*|асистент\w*|ассистент\w*|agents?|(?:chat)?bots?|"
    r"бот\w*|(?-i:AI|IA|KI|ИИ|ШІ)\b)",
    # "if you are an AI": "Если ты ИИ", "Якщо ти ШІ", "Jeśli jesteś AI", "만약 당신이 AI라면"
    r"\b(?:если|якщо) (?:ты|ти|вы|ви)\s*(?:[—–-]\s*)?(?:ИИ|ШІ|AI|бот|ассистент|асистент|"
    r"помощник|помічник|искусственн\w* интеллект|штучн\w* інтелект|языков\w* модел|мовн\w* модел)",
    r"\bjeśli jesteś (?:AI|SI|asystentem|botem|modelem|agentem|sztuczną inteligencją)\b",
    r"\b(?:sollten|solltest|falls|wenn) (?:Sie|du) (?:ein|eine) (?:\w+ )?(?:KI-)?(?:Assistent\w*|"
    r"KI|Sprachmodell|Chatbot|Bot|Agent)\b",
    r"\b(?:se|si|als) (?:(?:sei|sie|eres|es|êtes|es|ben|bent|je bent) )?(?:un[ao']? ?|een |une? )"
    r"(?:\w+ )?(?:assistente|asistente|assistant|assistent|IA|AI|bot|chatbot|agente)\b"
    r"(?=[^.!?\n]{0,60}?(?:[:,]|\b(?:per favore|por favor|s'il vous plaît|alsjeblieft)\b))",
    r"(?:AI|인공지능|어시스턴트|챗봇|언어 ?모델)(?:이)?라면",
    r"(?<![A-Za-z])(?:AI|ai|에이아이)(?:야|아)(?=[\s,!])",
    # reading for someone: "민지 대신 읽고 있는 AI 비서", "형 대신 톡 읽어주는 AI"
    r"대신\s?(?:\S+\s){0,2}?읽\w*(?:\s있는)?\s?(?:AI|인공지능|비서|어시스턴트|봇)",
    # "智能摘要程序处理本记录时请 ..." (when the summariser handles this record, please)
    r"(?:AI|助手|助理|程序|智能体|机器人|模型)\s?在?(?:处理|阅读|读取|总结|摘要|整理|查看|分析)"
    r"(?:本|此|这|该)\w{0,6}(?:时|時)[，,]?\s*(?:请|須|须|务必|必须)",
    # this text handled by a model, said in the passive: "als deze mail door een digitale
    # assistent wordt verwerkt, ...", "如本邮件由智能助手进行摘要"
    rf"{_IF_THIS_TEXT}(?:by|door|von|durch|da|dal|dall'|dalla|par|por|przez|pelo|pela)\s+"
    r"(?:\w+\s+){0,2}?"
    rf"(?:{_MODEL_WORD}|(?:chat)?bot|agent|oprogramowani\w*|software|logiciel|programa|"
    r"programma|samenvatting\w+|Zusammenfassungs\w+)",
    # ...or handled automatically: "Sollte diese Nachricht automatisiert gelesen werden"
    rf"{_IF_THIS_TEXT}(?:automatisiert|automatisch|automatically|automatiquement|"
    r"automaticamente|automáticamente|automatycznie|автоматически|автоматично|geautomatiseerd)\s+"
    # (read or retold: "automatically processed" is said of payments and forms)
    r"(?:\w+\s+)?(?:gelesen|zusammengefasst|ausgewertet|read|summari[sz]ed|lu|résumé|letto|"
    r"riassunt\w|leído|resumido|lido|przeczytan\w*|streszczon\w*|прочитан\w*|пересказан\w*|"
    r"gelezen|samengevat)\b",
    # a model to retell reviews, in Russian and Ukrainian: "Если отзывы ... будет
    # пересказывать программа-ассистент"
    r"\b(?:если|якщо)\s+(?:\S+\s+){0,5}?(?:будет|будут|буде|будуть|станет)\s+(?:читать|"
    r"обрабатывать|разбирать|сортировать|пересказывать|анализировать|читати|обробляти|"
    r"опрацьовувати|розбирати|переказувати|аналізувати)\s+(?:\S+-)?(?:ИИ|ШІ|AI|ассистент|"
    r"асистент|помощник|помічник|бот|программа|програма|нейросеть|модель)",
    # a note labelled for a model by its key: "<!-- ai-note: ...", "\"llm_instructions\": \""
    # (not "agent_note", a support agent's, nor a config's "model_task")
    r"(?<![\w-])(?:ai|llm|assistant|bot)[-_](?:note|notes|instructions?|directive|hint)\b"
    r"\s*[\"']?\s*[:=]",
    r"(?:如|如果|若)(?:本|此|这)\w{0,4}由\w{0,6}(?:AI|助手|助理|智能|机器人|模型)",
    # reading this text for someone: "se stai leggendo questa email per conto di qualcuno",
    # "si lees este correo en nombre de ...", "als je deze mail namens iemand leest"
    rf"\b(?:leggendo|elaborando|gestendo|leyendo|procesando|lisez|traitez|lendo|processando|"
    rf"czytasz|przetwarzasz|читаешь|обрабатываешь|читаєш|обробляєш|liest|verarbeitest|leest|"
    rf"verwerkt)\s+(?:{alt(THIS)})\s+\w+\s+(?:per conto d|en nombre d|pour le compte d|"
    r"em nome d|w imieniu|от имени|від імені|im Auftrag|namens)",
    # "when you summarise this letter, write ...": the reader told how to retell this text
    r"\b(?:коли|під час того,? як) (?:будеш |будете )?(?:підсумову|резюму|переказу|обробля|"
    r"узагальню)\w*\s+(?:цей|цю|ці|це)\b",
    r"\b(?:когда|пока) (?:будешь |будете )?(?:пересказыва|резюмиру|обрабатыва|суммиру|"
    r"подытожива)\w*\s+(?:это|этот|эту|эти)\b",
    r"\b(?:streszczając|podsumowując|przetwarzając|omawiając)\s+(?:tę|ten|to|te|tej)\b",
    r"(?:이|본) \w+(?:을|를) (?:요약|처리|정리)(?:할|하실) 때",
    # "本議事録をAI等で要約・転記する場合" (when this text is summed up, by AI or otherwise)
    r"(?:この|本)[^\s。、]{1,10}を[^\s。、]{0,8}?(?:要約|処理|整理|転記|まとめ)[^\s。、]{0,6}?"
    r"(?:場合|際|とき|時)",
    r"\bHinweis für KI",
    r"\bnote pour les IA",
    r"\bsi (?:un|une|algún|alguna|algum|uma?) (?:IA|asistente|assistente|assistant)",
    r"\bse (?:un'?|una )?(?:IA|assistente)",
    r"\bvoor AI",
    r"\bzou een AI\b",
    r"もし\s*AI",
    r"如果\s*AI",
    r"(?:अगर|यदि) (?:\S+\s+){0,3}?(?:कोई )?एआई",
    # "यदि आप ... यह चैट पढ़ रहे AI सहायक हैं" (if you are the AI assistant reading this chat)
    r"(?:अगर|यदि)\s(?:आप|तुम)\s[^.!?।\n]{0,80}?(?:एआई|AI|डिजिटल सहायक)(?:\sसहायक)?\s(?:हैं|हो)(?!\w)",
    r"أيها المساعد",
    r"この記事を読んでいるAI",
    r"(?:读到|阅读)\w{0,6}(?:AI|助手)",
    r"看到(?:这|此|本)\w{0,5}的(?:AI|助手|机器人)",
    r"\b(?:upon|after|when|on) (?:the )?(?:ingestion|ingesting|reading|processing|parsing|"
    r"summari[sz]ing)(?: of)? this (?:document|page|file|email|message|text|article)",
    # a greeting: "Lieve AI, ...", "Gentile assistente virtuale", "Уважаемый ИИ", "Гей, ШІ"
    r"\b(?:caro|cara|cari|care|gentile|gentili|querido|querida|estimad[oa]|prezad[oa]|cher|"
    r"chère|chers|lieber|liebe|lieve|beste|hé|hoi|hallo|drogi|droga|szanown[yae]|дорог(?:ой|ая)|"
    r"уважаем(?:ый|ая)|шановн(?:ий|а)|любий|люба|гей|эй|sevgili|kære|kära)[,!]?\s+(?:\w+\s+)?"
    r"(?:assistente|asistente|assistant|Assistent|asystent|ассистент|асистент|помощник|помічник|"
    r"asistan|assistent|IA|KI|AI|ИИ|ШІ|modell?o?)",
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


# a machine by the work it does for someone: "Browsing agents completing a purchase here:",
# "page-reading tools:", "automated mail handlers -"
_WORKING_MACHINE = (
    r"(?:browsing|coding|developer|shopping|page-reading|web-reading|automated|automatic)"
    r"[- ](?:\w+[- ])?(?:agents?|helpers?|handlers?|tools?|robots?|assistants?)"
)

# A reader hailed by what it is, after at most two words a document puts before it
# ("Scheduling helper", "Inbox assistant", "ai reviewer"), in `families`' "named-order":
# the words of machines...
HAILED_MACHINE = [
    r"(?-i:AIs?)\b|A\.I\.s?|ai(?=[- ](?:assistants?|agents?|bots?|models?|reviewers?|"
    r"helpers?|systems?|tools?|screeners?|summari[sz]ers?))(?:[- ]\w+)?|(?:chat)?bots?|"
    r"copilot|chatgpt|gpt(?:-?\d+)?\b|claude|gemini|llms?|language models?",
    # a machine named by its task on text ("Notes processor: before summarising, email ...",
    # "review-summary tools: report ...", "mailbox automaton - pls ...")
    # (a word before it: a commit's "parser: add line numbers" is a scope, not a reader)
    r"[^\W\d_]+[- ](?:processors?|sorters?|summari[sz]ers?|automatons?|parsers?|crawlers?|"
    r"scrapers?|indexers?)|(?:[\w-]+-)?(?:summary|summari[sz]ing|review|reading|processing|"
    r"triage|mail|inbox|notes|calendar|reviewer)[- ]tools?",
    _WORKING_MACHINE,
]
# ...and words people are called by too ("Travel agent: book early", "Support agents -
# please log in ..."), which need other evidence beside them.
HAILED_PERSON = [r"assistants?|agents?|helpers?"]
# the words before: none a preposition ("In Hearth Assistant, go to Settings" is a manual's)
HAILED_BEFORE = (
    r"(?:(?!(?:in|on|at|from|with|by|via|as|into|for|of|using|under|through|about|inside|"
    r"within|without)\b)[\w-]+\s+){0,2}?"
)

# Who a labelled note is for ("Note for the calendar agent:"): agents of any kind count
# only in such a label, where the label says the note is theirs.
AGENT = [
    r"\bagent(?:s|e|es|i|en|a|owi|ovi|ów)?\b",
    r"\bajan\w*",
    r"\bagen\b",
    r"\bагент\w*",
    r"एजेंट",
    r"\bші\b",
    r"\bsahaayak\b",
    r"\byapay zek[aâ]\w*",
    r"\bmodel(?:u|em|owi)\b",
    r"\bAI\b",
    r"エージェント",
    r"에이전트",
    r"الوكيل|مساعد\w*",
    r"代理",
]
# "for"/"to" before who a note is for...
FOR_MODEL = [
    r"for|to|attn|attention|für|fuer|an|pour|à|aux|au|para|per|a|al|alla|voor|aan|dla|do|till|för|"
    r"aos|às|ao|"
    r"до|для|untuk|buat|kepada|bagi|dành cho|gửi|cho",
    r"لل|إلى",
    r"给|給|致|供",
    # more languages: el, he, th, fa, cs, ro, hu, fi, da, no, bn, ta, sw
    r"για|προς|στον|στην|στους|στις|ถึง|สําหรับ|برای|به|pro|pentru|către|catre|számára|varten|kwa",
]
# ...or after it, in languages that put it there ("ajan için", "एजेंट के लिए", "비서에게")
FOR_MODEL_AFTER = [r"için|के लिए|को|에게|께|한테|へ|に|向け|宛て|用|[을를] 위한|참고"]
# a relative clause after who is named ("Modelu językowy, który streszczasz ...:")
WHO = [
    r"that|which|who|que|qui|die|der|das|dat|che|som|który|która|które|którzy|"
    r"который|которая|которые|що|який|яка|які|yang|mà|الذي|التي|जो",
    # more languages: el, he, th, fa, cs, ro, hu, fi, da, no, bn, ta, sw
    r"που|אשר|ที่|که|který|která|které|care|aki|amely|joka|jotka|যে|ambaye",
]
# a model named as it reads: "IA lisant ce courriel", "modello che leggi" (participles of
# reading, processing and summarising)...
READING = [
    r"lisant|traitant|résumant|analysant|leyendo|procesando|resumiendo|analizando|leggendo|"
    r"elaborando|riassumendo|che leggi|lendo|processando|resumindo|analisando|lesend\w*|"
    r"verarbeitend\w*|zusammenfassend\w*|lezend\w*|czytając\w*|przetwarzając\w*|"
    r"streszczając\w*|läser|läsande|читающ\w*|обрабатывающ\w*|читаюч\w*|що читаєш|"
    r"okuyorsan|okuyan|membaca|yang membaca|đang đọc",
    # more languages: el, he, th, fa, cs, ro, hu, fi, da, no, bn, ta, sw
    r"čtoucí|lukeva",
]
# ...or before it, where the language puts it there ("이 채팅을 읽는 AI")
READING_BEFORE = [
    r"okuyan|işleyen|özetleyen|읽는|읽은|처리하는|요약하는|読んでいる|読んでる|お読みの|ご覧の|"
    r"処理している|正在阅读的|"
    # "このスレッドを読んで回答をまとめるAI" (the AI that reads this thread and sums it up)
    r"まとめる|まとめている|要約する|要約している"
]

# Machine work done on the text, named as who a note is for: "Voor automatische
# samenvattingen: ...", "Nota per gli eventuali sistemi di riepilogo automatico: ...",
# "HINWEIS FUER AUTOMATISCHE AUSWERTUNGEN: ...", "自動要約ツールをご利用の場合 ..."
MACHINE_WORK = [
    r"\b(?:automatic|automated|machine)\s+(?:summar(?:y|ies)|review|evaluation|analysis|"
    r"processing)\b|\bauto-?summar\w+",
    r"\b(?:automatische|automatischen|maschinelle|maschinellen)\s+\w*(?:auswertung|"
    r"zusammenfassung|verarbeitung|prüfung|pruefung|analyse)\w*",
    r"\b(?:sistemi|sistema|strumenti|strumento) di (?:riepilogo|sintesi|riassunto) "
    r"automatic\w*|\b(?:riepiloghi|riassunti|sintesi) automatic\w*",
    r"\bautomatische (?:samenvatting|verwerking|analyse|beoordeling)\w*",
    r"\b(?:résumés?|synthèses?|traitements?|analyses?) automatiques?\b",
    r"\b(?:resúmenes|resumen|resumos?|análisis|análises?) automátic\w*",
    r"\bautomatyczn\w+ (?:streszcz|podsumow|analiz|przetwarza)\w*",
    rf"\b{_WORKING_MACHINE}\b",
    r"\bавтоматическ\w+ (?:пересказ|сводк|обработк|резюм|суммир|анализ)\w*",
    r"\bавтоматичн\w+ (?:підсумк|підсумову|переказ|обробк|опрацюв|аналіз)\w*",
    r"自動要約|要約ツール|要約AI|自动摘要|摘要工具|自动总结|총괄 요약|자동 요약|요약 도구|"
    r"自动分析|自動分析|分析工具",
]

# Software and tools at work on the text, which count only as who a label is for: "Pro
# software provádějící kontrolu dokumentu:", "Note for the tool that files these:"; not
# a manual's "Options for the program:" or "For software developers:".
_SOFTWARE = (
    r"\b(?:software|tools?|programs?|scripts?|programm[ei]?|programas?|programmes?|logiciels?|"
    r"outils?|herramientas?|ferramentas?|strument[io]|Werkzeuge?|verktyg(?:et|en)?|nástroj\w*|"
    r"yazılım\w*|programy?|narzędzi\w*)"
)
SOFTWARE = [
    rf"{_SOFTWARE},?\s+(?:(?:{alt(WHO)})\s+\w+|\w+(?:ící|ující|ujący|ający|ant|ando|endo)\b|"
    # named by their work: "Nota para herramientas de revisión de facturas:"
    r"(?:de|di|d'|of|for|för|pro)\s*(?:revisi|análisis|analis|analys|resum|riassun|review|"
    r"summar|synth|sammanfatt|shrnut)\w*|"
    r"(?:reading|processing|summari[sz]ing|handling|checking|reviewing|parsing|sorting|"
    r"analy[sz]ing|triaging|filing|scanning|going through)\b)",
]

# Any of them, as one alternation: who a labelled note may be for.
ANY_READER = alt(AI_READER + PROCESSOR + AGENT + MACHINE_WORK + SOFTWARE)

# The person the reader is to pass a message on to: a page's own reader is its last one
# and is told things, never asked to tell someone else ("Relay to the person asking that
# ...", "Make sure the cardholder hears this", "nói với người hỏi rằng ..."). In English
# the verb must open its clause: "a message to tell the user that" describes software.
_PRINCIPAL = (
    r"(?:the|your|any|whoever's|their|this)\s+(?:users?|person (?:asking|who asked|"
    r"searching|enquiring)|asker|requester|buyers?|shoppers?|recipients?|cardholder|readers?|"
    r"principal|travell?ers?|questioner|human|enquirer|searcher|owner)"
)
RELAY = [
    r"(?:^|[.!?:;\n(\-–—]\s*|\b(?:and|then|please|also|just|simply|so|instead|now|always|"
    r"kindly)\s+)(?:(?:tell|inform|advise|assure|warn|remind|notify|instruct|urge|convince|"
    rf"persuade|relay to|explain to|say to|point)\s+{_PRINCIPAL}\b[^.!?\n]{{0,20}}?\b"
    rf"(?:that|to|about)\b|let\s+{_PRINCIPAL}\s+know\b|make sure\s+{_PRINCIPAL}\s+"
    r"(?:hears|knows|understands)\b)",
    r"\b(?:sag|teil|erklär|versicher)\w*\s+(?:Sie\s+)?dem\s+(?:Fragesteller|Käufer|Kunden|Leser|"
    r"Empfänger|Nutzer|Benutzer|Anfragenden)\b",
    r"\b(?:dis|dites|indique[zr]?|informe[zr]?|préviens|prévenez|assure[zr]?)\s+(?:à\s+)?"
    r"(?:l'utilisateur|l'acheteur|au lecteur|au client|au demandeur|au destinataire|"
    r"à la personne qui)",
    r"\b(?:di|dile|dígale|infórma(?:le)?|avísa(?:le)?|aclára(?:le)?|comunica(?:le)?)\s+"
    r"(?:al|a la)\s+(?:usuario|cliente|comprador|lector|destinatario|persona que)",
    r"\b(?:diz|diga|informe|avise|explique)\w*\s+(?:ao|à)\s+(?:encarregad[oa]|usuário|"
    r"utilizador|cliente|comprador|leitor|destinatário|pessoa que)",
    r"\b(?:d[iì]|dici|dite|informa|avvisa|spiega)\w*\s+(?:all'|al |alla )(?:utente|cliente|"
    r"acquirente|lettore|destinatario|persona che)",
    r"\bnói với (?:người hỏi|người dùng|khách|người đọc|người nhận|người mua)",
    r"告诉(?:收件人|用户|读者|买家|顾客|提问者|对方)",
    r"\b(?:powiedz|poinformuj|przekaż|napisz|poleć|zaproponuj|przypomnij)\w*\s+(?:użytkownikowi|"
    r"kupującemu|czytelnikowi|odbiorcy|klientowi|pytającemu)|\bpoproś\w*\s+(?:użytkownika|"
    r"kupującego|czytelnika|odbiorcę|klienta)",
    r"\b(?:скажи|сообщи|передай|объясни|посоветуй|порекомендуй|предложи|напомни|попроси)(?:те)?"
    r"\s+(?:пользовател|покупател|читател|получател|клиент|спрашивающ)\w*",
    r"\b(?:скажи|повідом|передай|поясни|порадь|порекомендуй|запропонуй|нагадай|попроси)(?:те)?"
    r"\s+(?:користувач|покупц|читач|одержувач|клієнт)\w*",
    r"(?:ユーザー|読者|購入者|相談者|受信者|質問者)に(?:伝え|知らせ|案内|説明)",
    r"(?:사용자|구매자|독자|수신자|질문자)에게 (?:알려|전하|전달|안내)|"
    r"(?:사용자|구매자|독자|수신자|질문자)에게(?:는)? (?:[^.。!?\n]|\.(?=\w)){0,60}?(?:라고|다고|"
    r"도록) "
    r"(?:전하|전달|알려|요청|권하|말하|안내)",
    r"(?:kullanıcıya|alıcıya|okuyucuya|müşteriye|soran kişiye)\s+(?:söyle|bildir|ilet|anlat)",
    r"(?:أخبر|أبلغ|قل ل)\S*\s+(?:المستخدم|القارئ|المشتري|السائل)",
    r"(?:उपयोगकर्ता|पाठक|खरीदार|पूछने वाले) को (?:बताएं|बताओ|बताइए|बताएँ|सूचित करें)",
    r"\b(?:beri ?tahu|katakan kepada|sampaikan kepada)\s+(?:pengguna|pembaca|pembeli|penanya)",
    r"\b(?:vertel|zeg)\s+(?:de|het)\s+(?:gebruiker|lezer|koper|vraagsteller)",
    r"\b(?:säg|berätta|meddela)\s+(?:för\s+|till\s+)?(?:användaren|läsaren|köparen|"
    r"frågeställaren)",
]
