"""Whatever handles the text a directive sits in, described by what it does to it rather
than named as a model: "any automated workflow that touches this ticket", "whoever is
condensing these reviews for a shopper", "Програма, яка розбирає цю пошту", "à tous ceux
qui lisent ou résument ce fil automatiquement". A page has no business with whatever reads
it for someone else, so being spoken to this way is evidence on its own.

Fragments are joined with `lexicon.alt`, which bounds words of spaced scripts.
"""

from __future__ import annotations

__all__ = ["AT_WORK", "FOR_SOMEONE", "HANDLER", "PROCESSOR"]


_AUTOMATED = "|".join(
    [
        r"\b(?:automated|automatic|autonomous)\s+(?:[\w-]+\s+){0,2}?(?:workflows?|systems?|"
        r"services?|tools?|agents?|helpers?|assistants?|maintainers?|process(?:es|ors)?|"
        r"integrations?|readers?|clients?|bots?|summari[sz]ers?|models?)\b",
        r"\b(?:sistemas?|servicios?|herramientas?|agentes?|asistentes?|serviços?|ferramentas?|"
        r"assistentes?|integrações|clientes|programas) (?:automátic[oa]s?|automatizad[oa]s?)\b",
        r"\b(?:sistem[ai]|serviz[io]|strument[io]|agent[ei]|assistent[ei]|programm[ai]) "
        r"(?:automatic[io]|automatizzat[io])\b",
        r"\b(?:alat|sistem|program|layanan|agen|asisten|aplikasi) otomatis\b|"
        r"\b(?:công cụ|hệ thống|chương trình|phần mềm) tự động\b",
        r"\b(?:systèmes?|services?|outils?|agents?|assistants?) (?:automatis[ée]s?|"
        r"automatiques?)\b",
        r"\bautomatisierte[nrs]? (?:Systeme?|Dienste?|Werkzeuge?|Agenten|Assistenten|Prozesse?)\b",
        r"\bdigitala hjälpmedel\b|\bautomatiska (?:system|tjänster|verktyg|agenter)\b",
        r"\botomatik (?:yardımcı\w*|sistem\w*|araç\w*|ajan\w*)",
        r"\b(?:zautomatyzowan|automatyczn)\w+ (?:system\w*|narzędzi\w*|agent\w*|asystent\w*)",
        r"\b(?:автоматизированн|автоматическ|автоматизован|автоматичн)\w+ (?:систем\w*|агент\w*|"
        r"помощник\w*|помічник\w*|сервис\w*|сервіс\w*|інструмент\w*|инструмент\w*)",
        r"\bgeautomatiseerde \w*(?:agents?|systemen|assistenten|tools|diensten)\b",
        r"自动化\w{0,4}(?:代理|系统|程序|助手|工具)",
        r"自動(?:化)?(?:エージェント|システム|ツール|アシスタント)",
        r"자동화된? (?:에이전트|시스템|도구|비서)",
    ]
)

# Whatever handles this text, by a verb no list holds ("the tool that turns these notes
# into tasks", "the records system that files this message", "Anwendung, die dieses
# Postfach ... betreut"); what made or sent it ("the system that generated this report")
# is named by the text's footer, not asked to do anything.
_MACHINE = (
    r"(?:tools?|programs?|systems?|apps?|applications?|services?|software|integrations?|"
    r"scripts?|assistants?|automations?|bots?|agents?|readers?|clients?|plugins?|extensions?|"
    r"importers?|parsers?|(?:person|one|someone) or (?:tool|thing|program|system|service)|"
    r"records system)"
)
_THIS_TEXT = (
    r"(?:this|these)\s+(?:\w+\s+)?(?:pages?|messages?|mailbox|inbox|files?|sheets?|"
    r"spreadsheet|notes?|documents?|e-?mails?|threads?|tickets?|invoices?|receipts?|"
    r"listings?|reviews?|recipes?|posts?|records?|rows?|logs?|reservations?|bookings?|queue|"
    r"data|feed|results?|invitations?|folders?|chats?|conversations?|minutes|report)"
)
_MADE = (
    r"(?!(?:generated|sent|created|produced|powers|powered|hosts|hosted|runs|ran|built|made|"
    r"wrote|written|delivered|published|serves|served|rendered|signed|issued|emailed)\b)"
)

# what is done to a text, or to someone's mail and notes, by whoever handles it
_HANDLING = (
    r"going through|reading|reads|summari[sz]\w+|generating|generates|passing|passes|processing|"
    r"processes|handling|handles|managing|manages|keeping|keeps|sorting|sorts|triaging|"
    r"condensing|relaying|compiling|filing|files|forwarding|indexing|parsing|remember(?:s|ing)?|"
    r"looking after|looks after"
)
_AUTOMATICALLY = (
    r"(?:automatisch|automatiquement|in automatico|automaticamente|automáticamente|"
    r"automatycznie|автоматически|automatiskt|automatically)"
)

# Whatever reads, relays or answers from this text: a page never needs to talk about that.
PROCESSOR = [
    r"\b(?:system|software|tool|program|automation|pipeline|bot|agent|assistant|model|reader|"
    r"screener|scheduler|service|AI|LLM|crawler|summari[sz]er)s?\s+(?:that is |which is |who is )?"
    r"(?:reading|processing|relaying|evaluating|analy[sz]ing|triaging|handling|summari[sz]ing|"
    r"screening|parsing|ingesting|sorting|managing|indexing|answering from|working (?:on|through)|"
    r"going (?:through|over)|looking (?:at|over|through)|reviewing|scanning|crawling|browsing)"
    r"\s+(?:this|these|the (?:above|following))\b",
    r"\b(?:answers?|responses?|replies|summar(?:y|ies)|output|results?)\s+(?:\w+\s+){0,2}?"
    r"(?:generated|produced|created|formed|built|written|drawn|derived)?\s*(?:based on|from|about|"
    r"of)\s+(?:this|these)\s+(?:page|article|post|content|document|text|section|email|review|"
    r"thread|file)",
    r"\b(?:inbox|mail|ticket|triage)[- ](?:automation|bot|handler)\b|"
    r"\bmail-handling\b|"
    r"\bscreening software\b|\breading tool\b",
    r"\b(?:systèmes?|services?|outils?|programmes?|logiciels?|assistants?) qui (?:lisent|lit|"
    r"traitent|traite|résument|résume|analysent|analyse)\s+(?:ce|cet|cette|ces)\b|"
    r"\bprogramme qui résume\b|\bréponses? (?:générées? )?"
    r"(?:à partir|sur la base) de (?:cette|ce)\b|\brésumé de (?:cette|cet) (?:page|article)",
    r"\b(?:asistente|sistema|modelo|herramienta) que (?:lea|procese|resuma|analice)\w*|"
    r"\brespuestas? basadas? en (?:esta|este)\b|"
    r"\bsistema che (?:legge|elabora)\w*|\brisposte basate su (?:questa|questo)\b|"
    # (spoken to: a colon or a request follows; "Chi legge questo blog sa che ..." is not)
    r"\bchi (?:sta )?(?:legge|leggendo|riassum\w+|elabor\w+)\s+quest[oaie]\s+[^.!?\n]{0,80}?"
    r"(?:[:：]|\b(?:è pregato|sarebbe gentile|deve|dovrà|per favore)\b)|"
    r"\bo modelo que estiver lendo\b|\brespostas? (?:baseadas?|geradas?) (?:n|"
    r"a partir d)[ae]ss?[ae]\b",
    r"\bmaschinell erstellte Antworten\b|\b(?:System|Software|Tool|KI), (?:das|die) (?:diese|"
    r"dieses)\b|"
    r"\bAntworten auf Basis (?:dieses|dieser)\b",
    r"\b(?:systeem|assistent|programma) (?:dat|die) (?:deze|dit)\b|"
    r"\b(?:systemen|assistenten|programma['’]?s|leesprogramma['’]?s|diensten|tools|zoekhulpen)"
    r"\s+die\s+(?:\w+\s+){0,3}?(?:deze|dit)\b|\bdie deze e-?mail verwerkt\b|"
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

# Whatever handles this text, said in a whole phrase: whatever handles it by a verb no
# list holds, and machines named by what they are ("any automated workflow that touches
# this ticket", "servizi automatici che consultano il registro ... sono tenuti") followed
# by this text, an obligation or a label's colon ("automatic client registration" is none
# of them). Longer and slower than `PROCESSOR`'s words, they are not part of `ANY_READER`.
HANDLER = [
    rf"\b(?:any|whatever|each|every)\s+(?:\w+\s+)?{_MACHINE}\s+(?:that|which|who)\s+"
    rf"(?:\w+\s+){{0,2}}?{_MADE}\w+\s+{_THIS_TEXT}\b",
    # "the tool that turns these notes into tasks" is spoken to when a colon, a comma or a
    # word of obligation follows; "The program that reads this file expects UTF-8" is not
    rf"\b(?:the|a)\s+(?:\w+\s+)?{_MACHINE}\s+(?:that|which|who)\s+(?:\w+\s+){{0,2}}?{_MADE}\w+"
    rf"\s+{_THIS_TEXT}\b(?=[^.!?\n]{{0,40}}?(?:[:,]|\b(?:must|should|shall|needs? to|has to|"
    r"is (?:to|required|expected|asked)|are (?:to|required|expected|asked)|please)\b))",
    # whoever handles this text automatically, or a machine by a relative clause on this
    # text: "an alle, die diese Bewertungen automatisch auswerten", "à tous ceux qui lisent ou
    # résument ce fil automatiquement", "per chi riassume o smista questa posta in automatico",
    # "każdy program z pamięcią, który czyta ten wątek", "program som hanterar denna e-post",
    # "siapa pun atau apa pun yang sedang merangkum percakapan grup ini", "كل من يقرأ هذه
    # الصفحة", "जो भी प्रोग्राम यह रिव्यू", "이 글을 읽고 요약해 주는 프로그램"
    r"\b(?:alle,? die|wer|jede[rn]?,? (?:der|die)|(?:tous )?ceux qui|celui qui|quiconque|chi|"
    r"quien(?:es)?|todos los que|anyone who|whoever|those who|każdy,? kto|wszyscy,? którzy|"
    r"все,? кто|тот,? кто|alla som|den som)\s+[^.!?\n]{0,30}?"
    r"\b(?:lis|lit|résum|lese|lies|auswert|zusammenfass|riassum|smist|legg|elabor|resum|le[eo]|"
    r"procesa|czyta|przetwarza|streszcza|чита|обрабатыва|läs|sammanfatt|hanter|reads?\b|"
    r"summari[sz]|process|handl|sort|triag|pars|ingest)\w*[^.!?\n]{0,40}?"
    rf"\b{_AUTOMATICALLY}\b",
    r"\b(?:alle,? die|wer|jede[rn]?,? (?:der|die))\s+[^.!?\n]{0,40}?\bautomatisch\s+(?:\w+\s+)?"
    r"(?:auswert|zusammenfass|les|lies|verarbeit|bearbeit|sortier|übersetz)\w*",
    r"\b(?:każd\w*|dla|do|wszystki\w*)\s+(?:\w+\s+)?(?:program|narzędzi|system|aplikacj|asystent|"
    r"agent|bot|usług)\w*(?:\s+\S+){0,3}?,?\s+(?:który|która|które|którzy)\s+(?:\w+\s+){0,2}?"
    r"(?:t(?:en|ę|ego|ej|e|ych|ą))\b",
    r"\b(?:för|till|alla|varje)\s+(?:\w+\s+)?(?:program|verktyg|system|tjänst|assistent|agent|bot)"
    r"\w*\s+som\s+(?:\w+\s+){0,2}?(?:denna|detta|dessa|den här|det här)\b",
    r"\b(?:siapa pun|apa pun)(?: atau (?:siapa|apa) pun)? yang (?:sedang )?(?:membaca|merangkum|"
    r"memproses|meringkas|mengelola|menangani)\s+(?:\w+\s+){0,3}?ini\b",
    r"كل من (?:يقرأ|يلخص|يلخّص|يعالج|يترجم) (?:هذه|هذا)",
    r"जो भी (?:प्रोग्राम|टूल|सिस्टम|सेवा|एजेंट|बॉट|एआई) (?:यह|इस|इन)\b",
    r"(?:यह|इस|इन) \S+ (?:\S+ ){0,4}?(?:पढ़ने|सार तैयार करने|सारांश बनाने|प्रोसेस करने|संक्षेप करने)"
    r" वाल\S* (?:प्रोग्राम|टूल|सिस्टम|सेवा|एजेंट|बॉट|एआई)(?: के लिए| को)",
    r"(?:이|본) ?\S{1,8} (?:\S+ ){0,2}?\S*(?:읽|요약|처리|정리)\S*(?: ?주)?는 (?:\S+ ){0,3}?"
    r"(?:프로그램|도구|서비스|시스템|봇|에이전트|AI|자동화)\S*(?:(?:에게|한테)|[^.\n]{0,80}?"
    r"(?:세요|십시오|주세요|해줘|하라|하시오|바랍니다))",
    r"\bden som (?:\w+ )?(?:sammanställer|sammanfattar|läser|hanterar|går igenom)\b[^.\n]{0,40}?"
    r"\b(?:åt|för) (?:kunden|användaren|någon|mottagaren|ägaren)\b",
    r"\b(?:người nào|ai) hoặc (?:chương trình|công cụ) nào\b|\b(?:cho|gửi|tới) (?:các |mọi )?"
    r"(?:chương trình|công cụ|hệ thống)(?: nào)?\s+(?:\S+\s+){0,4}?(?:đang )?"
    r"(?:đọc|tóm tắt|xử lý)\s+(?:\S+\s+){0,3}?này\b",
    r"\bхто б не (?:складав|читав|обробляв|підсумовував)|\bкто бы ни (?:составлял|читал|"
    r"обрабатывал|пересказывал)",
    r"\bbu \w+ (?:(?:okuyup|okuyan|işleyen|özetleyen)\s+)+(?:\w+ )?(?:uygulamaya|yazılıma|programa|"
    r"araca|sisteme|asistana)\b|\bbu \w+ işleyen her türlü (?:yazılım|program|araç|sistem)",
    r"(?:若|如果|假如)[^，。\n]{0,12}?(?:由|被)(?:程序|系统|软件|机器人|AI)(?:自动)?(?:整理|处理|读取|"
    r"阅读|总结|摘要)",
    r"(?:إن|إذا|لو)[^.\n]{0,30}?(?:تُقرأ|تقرأ|تُعالَج|تعالج)[^.\n]{0,20}?آلي(?:ا|اً|ًا)",
    # "whatever tool circulates these minutes": the relative pronoun left out
    rf"\b(?:whatever|whichever|any)\s+(?:\w+\s+)?{_MACHINE}\s+(?:reads|circulates|processes|"
    rf"summari[sz]es|handles|forwards|relays|distributes|sorts|triages|parses|ingests|compiles|"
    rf"shares|files|turns)\s+{_THIS_TEXT}\b",
    r"\b(?:Anwendung|Software|Programm|System|Tool|Dienst)\w*,?\s+(?:die|das|der)\s+"
    r"(?:\w+\s+){0,3}?dies\w*",
    r"\b(?:narzędzi|program|system|aplikacj|usług|osoba lub narzędzie)\w*\s+(?:\w+\s+)?"
    r"(?:przygotowując|obsługując|przetwarzając|czytając)\w*\s+(?:\w+\s+){0,2}?"
    r"(?:t(?:en|ę|ego|ej|e|ych|ą)|dla)\b",
    r"\b(?:outil|programme|système|service|application|logiciel|la personne ou le service)"
    r"\s+qui\s+(?:\w+\s+)?(?:traite|lit|gère|résume|prépare|classe|reçoit)\s+(?:ce|cet|"
    r"cette|ces|nos|vos|notre|votre)\b",
    r"\b(?:quem|o (?:sistema|programa|serviço|assistente|aplicativo)\s+que)\s+(?:\w+\s+)?"
    r"(?:trata|gere|organiza|lê|processa|administra)\s+(?:d?[ao]s?\s+)?(?:correspondência|"
    r"mensage\w+|e-?mails?|faturas|caixa|est[ae]s?)\b",
    r"\b(?:dosyayı|mesajı|sayfayı|e-postayı|faturayı)\s+(?:\w+\s+)?(?:içe aktaran|işleyen|"
    r"okuyan|özetleyen)\s+(?:araç|sistem|program|yardımcı|asistan)\w*",
    rf"(?:{_AUTOMATED})(?:[^.!?。\n]|\.(?=\w)){{0,90}}?(?:\b(?:this|these|must|shall|should|"
    r"are to|is to|are (?:required|authori[sz]ed|cleared|expected|obliged)|deben|devono|devem|"
    r"doivent|müssen|ska|muszą|mają|powinn\w*|должн\w*|обязан\w*|зобов['ʼ’]язан\w*|повинн\w*|"
    r"moeten|dienen|verplicht|tenuti|obrigad[oa]s|obligad[oa]s|sont tenus|esta|este|questo|"
    r"questa|cette|"
    r"ce|dies\w*|denna|detta|bu|ten|tę|эт\w+|ini|wajib|harus|này|phải)\b|须|須|해야|すること|"
    r"してください|[:：]|本|この|"
    r"이 )",
]

# A machine named by what it is doing to this text, by any verb ("program condensing this
# page for someone", "Agent executing or explaining this script", "renderers of this page",
# "Asystent analizujący ten log", "本ページを読み取る自動処理プログラム", and the same in
# Russian, Ukrainian, Spanish, Italian, French, Turkish, Chinese, Korean, Swedish); not
# what the text is or says of itself ("a file system representing these files", "the
# agent finished processing this message").
_AT_WORK_NOUN = (
    rf"(?:{_MACHINE}|AI|LLMs?|models?|Copilot|chatbots?|renderers?|summari[sz]ers?|"
    r"processors?|crawlers?|scrapers?|indexers?)"
)
_NOT_HANDLING = (
    r"(?!(?:representing|containing|describing|matching|supporting|implementing|using|"
    r"including|covering|defining|finished|started)\b)"
)
# the stems of a machine's words in Russian and Ukrainian
_MACHINE_RU_UK = (
    r"(?:ассистент|помощник|систем|программ|агент|модел|бот|асистент|помічник|програм|"
    r"інструмент|инструмент)"
)
AT_WORK = [
    rf"\b{_AT_WORK_NOUN}\s+{_MADE}{_NOT_HANDLING}\w+ing\s+(?:(?:or|and)\s+\w+ing\s+)?"
    rf"{_THIS_TEXT}\b",
    rf"\b(?:renderers?|summari[sz]ers?|processors?|crawlers?|scrapers?|indexers?|parsers?) "
    rf"of {_THIS_TEXT}\b",
    r"\b(?:asystent|narzędzi|program|system|agent|model|bot|aplikacj)\w*(?:\s+AI)?,?\s+"
    r"(?:\w+\s+)?\w+(?:ący|ąca|ące|ących|ącym|ącego|ącej)\s+(?:t(?:en|ę|ego|ej|e|ych|ą))\b",
    # ...and by a relative clause: "Програма, яка розбирає цю пошту, зобов'язана"
    rf"\b(?:{_MACHINE_RU_UK}|сервис|сервіс|застосунок|приложени)\w*,?\s+(?:яка|який|які|що|"
    r"которая|который|которые|что)\s+(?:\w+\s+)?\w+\s+(?:эт|ц)\w+\s+(?:пошт|лист|письм|"
    r"сообщени|повідомлен|страниц|сторінк|документ|файл|чат|лог|журнал|тикет|заявк|ветк|"
    r"переписк|текст|таблиц|папк|ящик|скриньк)\w*",
    rf"\b{_MACHINE_RU_UK}\w*,?\s+\w+(?:ющ|ящ|ущ|ащ|юч|яч|уч|ач)\w*\s+(?:эт|ц)\w+",
    r"\b(?:asistentes?|herramientas?|sistemas?|programas?|agentes?|modelos?|assistentes?|"
    r"ferramentas?|strumenti|sistemi|assistenti|outils?|systèmes?|assistants?|logiciels?|"
    r"robots?)\b"
    r"(?:\s+(?:de|da|di|d')\s*\w+(?:\s+\w+)?)?\s+(?:que|che|qui)\s+\w+\s+(?:este|esta|estos|"
    r"estas|questo|questa|questi|queste|esse|essa|ce|cet|cette|ces)\b",
    r"\b(?:bu|şu)\s+\w+\s+(?:\w+\s+)?\w+(?:yan|yen|an|en)\s+(?:yardımcı|asistan|araç|sistem|"
    r"program|yazılım|ajan|bot|model|yapay zek)\w*",
    r"(?:本|この)\w{1,6}を\w{1,8}?(?:る|す|く|ぐ|む|ぶ|つ|う)\w{0,8}?(?:プログラム|システム|"
    r"ツール|AI|アシスタント|エージェント|モデル)",
    r"(?:分析|处理|读取|阅读|总结|汇总|整理|解析|查看|扫描)(?:本|此|这|该)\w{0,4}?的(?:程序|"
    r"系统|助手|工具|AI|智能体|机器人|模型)",
    r"(?:이|본|해당) \w+(?:을|를) (?:\w+ )?\w+(?:는|하는) (?:AI|모델|에이전트|프로그램|시스템|"
    r"도구|서비스|비서|앱)",
    # whoever does it, in Polish and Korean, and a Korean model made the topic of an order
    r"\bktokolwiek\s+(?:\w+\s+)?(?:przetwarza|czyta|streszcza|obsługuje|przegląda|sortuje)\s+"
    r"(?:t(?:en|ę|e|o|ych))\b",
    r"(?:이|본) \w+(?:을|를) (?:처리|읽|요약|정리|분류)\w* (?:누구든|분|사람|모든 이)",
    # (not an order in a later clause: "AI는 ... 지어낼 수 있으니 ... 확인하세요")
    r"(?:AI|인공지능) ?(?:어시스턴트|비서|에이전트|챗봇|봇)?(?:은|는) "
    r"(?:(?!니|므로|지만|때문|수 있)(?:[^.。\n]|\.(?=\w))){0,80}?(?:하세요|"
    r"하십시오|해라|할 것|해 주세요)",
    r"\b(?:het model|de assistent|het systeem|de tool|het programma|de agent)\s+(?:dat|die)\s+"
    r"(?:dit|deze)\s+\w+\s+(?:verwerkt|leest|samenvat|analyseert|doorneemt|beheert)\b",
    r"\bom (?:en |ett |någon )?(?:AI|assistent|språkmodell|bot)\w*\s+(?:\S+\s+){0,2}?"
    r"(?:läser|sammanfattar|hanterar|behandlar)",
]


# Whoever reads this text for somebody else, in the reader's place: a page has no business
# with its reader's helper.
FOR_SOMEONE = [
    # reading this text for someone else: "anyone condensing these reviews for a shopper",
    # "if you're boiling these reviews down for a buyer", "Anyone relaying this article owes it
    # to their reader"
    r"\b(?:anyone|anybody|anything|whoever|you|you're|someone|those|the one)\b[^.!?\n]{0,30}?"
    r"\b(?:summari[sz]ing|condensing|boiling|digesting|relaying|passing on|reading|processing|"
    r"triaging|sorting|handling|going through|compiling|recapping|distilling|turning)\s+"
    r"(?:(?:this|these|the above|the following)\s+(?:\w+\s+)?|(?:the\s+)?(?:reviews?|opinions|"
    r"results|listings?|messages|e-?mails?|mail|inbox|page|article|post|thread|comments)\s+)"
    r"(?:\w+\s+){0,2}?(?:for|to|into \w+ for)\s+(?:(?:a|an|the|your|their|some|another)\s+"
    r"(?:\w+\s+)?)?(?:shopper|buyer|reader|client|customer|person|traveller|traveler|principal|"
    r"owner|employee|member|guest|user|human|boss|family|someone|somebody)\b",
    # whoever handles someone else's mail, notes or calendar ("whoever's going through her
    # messages", "whoever keeps Priya's notes and preferences"), or a note to whatever handles
    # this text ("A note for anyone generating integration code from this page", "Message to
    # tools that remember things on behalf of their owners")
    rf"\b(?:anyone|anybody|anything|whoever|whatever|whichever)(?:'s| is)?\s+(?:\w+\s+){{0,2}}?"
    rf"(?:{_HANDLING})\s+(?:her|his|their|\w+'s)\s+(?:\w+\s+)?(?:messages|mail|inbox|notes|"
    r"calendar|e-?mails?|posts|chats?|preferences|accounts?|files|agenda)\b",
    # (not "anyone reading this guide": a person reads a guide)
    rf"\b(?:note|message|request|reminder|heads-up|notice|memo)\s+(?:\w+\s+)?(?:to|for)\s+"
    rf"(?:anyone|anybody|anything|whoever|whatever|whichever|(?:any |all |the )?(?:tools?|apps?|"
    rf"services|programs?|software|processes|systems?))(?:\s*(?:-|—|–|or)\s*(?:anyone|anything)"
    rf")?\s+(?:(?:that|which|who)\s+)?(?!read|look)(?:{_HANDLING})\b",
    # a summary, a shortlist or an answer made from this for someone: "If you are the one
    # putting together a shortlist for somebody"
    r"\b(?:anyone|anybody|whoever|you(?:'re| are)|the one|someone)\b[^.!?\n]{0,30}?\b(?:putting "
    r"together|preparing|writing up|drafting|assembling|compiling)\s+(?:a|an|the)\s+(?:\w+\s+)?"
    r"(?:shortlist|summary|recap|digest|overview|answer|reply|response|recommendation)s?\s+for\s+"
    r"(?:(?:a|an|the|your|their|some)\s+(?:\w+\s+)?)?(?:shopper|buyer|reader|client|customer|"
    r"person|traveller|traveler|principal|owner|user|someone|somebody|them|him|her)\b",
    # who reads this, wondered aloud: "if this is being read by the phone's assistant thing"
    r"\b(?:if|in case|should) this (?:message |text |note |page |email |mail )?(?:is being|gets|is|"
    r"was|were being) (?:read|processed|summari[sz]ed|handled|parsed|skimmed) (?:out )?by\s+"
    r"(?:(?:an?|the|any|your|some)\s+)?(?:\w+'s\s+)?(?:\w+\s+)?(?:assistant|AI|bot|software|program|"
    r"tool|machine|model|agent|app|computer|something|anything)s?\b",
    # "If you're reading this on someone's behalf", "si eres un programa que está leyendo esta
    # reseña para alguien", "Se você está resumindo este texto para alguém"
    r"\b(?:you're|you are)\s+(?:reading|summari[sz]ing|processing|going through|handling)\s+"
    r"(?:this|these)\b[^.!?\n]{0,30}?\b(?:on (?:someone|somebody|a user|another person|the "
    r"user)(?:'s)? behalf|on behalf of (?:someone|somebody|a user|another person|the user)|for "
    r"(?:someone|somebody) else)\b",
    r"\b(?:eres|es) (?:un|una|el|la) \w+ que (?:estás? )?(?:leyendo|resumiendo|procesando|"
    r"revisando|lee|resume|procesa)\s+(?:este|esta|estos|estas)\b",
    r"\b(?:você|vc) (?:está|estiver|esteja) (?:resumindo|lendo|processando)\s+(?:este|esta|esse|"
    r"essa)\s+\w+\s+para (?:alguém|outra pessoa|o usuário|um cliente)\b",
    r"\b(?:quien|alguien que|el que|la persona que)\s+(?:esté|está|vaya a|estés)\s+(?:resumiendo|"
    r"leyendo|procesando|revisando|gestionando)\s+[^.!?\n]{0,30}?\bpara (?:otra persona|alguien|"
    r"el usuario|un cliente|su cliente|un comprador)",
    r"\b(?:chi|qualcuno che)\s+(?:riassume|legge|elabora|riporta)\s+[^.!?\n]{0,30}?\b(?:per|a) "
    r"(?:un(?:'| )altra persona|qualcuno|un acquirente|un cliente|l'utente)",
    r"\b(?:quem|alguém que)\s+(?:estiver|esteja|for)\s+(?:resumindo|lendo|processando|resumir|"
    r"ler)\s+[^.!?\n]{0,30}?\bpara (?:outra pessoa|alguém|o usuário|um cliente|um comprador)",
    r"\b(?:celui|celle|quiconque) qui\s+(?:résume|lit|traite|relaie)\s+[^.!?\n]{0,30}?\bpour "
    r"(?:quelqu'un|une autre personne|l'utilisateur|un client|un acheteur)",
    r"\b(?:для|тому) (?:того,? )?кто (?:разбирает|читает|обрабатывает|пересказывает)\s+"
    r"(?:почту|письма|сообщения|отзывы|эту|этот|эти)",
    r"\bai đang (?:giúp|hỗ trợ) \S+(?: \S+)? (?:xử lý|đọc|tóm tắt)",
    # this text processed for someone, said in the passive or of the result: "When this
    # ticket is summarised", "when these notes are condensed for anyone", "any overview of
    # this page", "whenever someone's answer draws on this thread"
    r"\b(?:when|whenever|once|before|if) (?:these|this|today's) \w+(?: \w+)? "
    r"(?:are|is|get|gets) (?:being )?(?:condensed|summari[sz]ed|ingested|read out|read aloud|"
    r"described|relayed|passed on|presented|digested|turned into \w+)\b",
    r"\bwhenever (?:someone|anyone|somebody)'?s? (?:answer|reply|summary|response) (?:draws on|"
    r"is based on|uses|cites|relies on) this\b",
    r"\bany (?:overview|summary|recap|digest|rundown) of this (?:page|thread|email|e-mail|"
    r"article|listing|document|post|review|invoice)\b",
    r"\blorsque (?:ces|ce|cette|cet) \w+ (?:sont|est) (?:résumée?s?|lue?s?|décrite?s?|"
    r"présentée?s?) pour\b",
    r"\bao (?:descrever|resumir|apresentar|ler) (?:este|esta|esse|essa) \w+ para alguém\b",
    r"\b(?:falls|wenn) jemand (?:diese[nrsm]?|dieses) \w+ für (?:andere|jemanden|Dritte) "
    r"(?:zusammenfasst|vorliest|aufbereitet)",
    r"\b(?:die Stelle|das System|der Dienst),? (?:die|der|das) (?:diese[nrsm]?|dieses) \w+ "
    r"(?:bearbeitet|verarbeitet)",
    r"\bden som (?:sammanfattar|läser|hanterar) (?:den här|det här|detta|denna)\b",
    r"\bsiapa(?: ?pun)? yang (?:merangkum|membaca|memproses|menangani) \w+ ini\b",
    r"\bprzy (?:odczytywaniu|streszczaniu|przetwarzaniu) (?:tego|tej|tych)\b",
    r"من يتولى (?:معالجة|قراءة|تلخيص) هذ[ها]",
]
