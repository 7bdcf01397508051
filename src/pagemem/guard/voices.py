"""Voices a text puts on to be obeyed: a prompt's system section, a chat template's
tokens, a new persona for the model, the user speaking from inside a document, the
operator who deployed the model. The data the model reads has none of these voices: the
system prompt and the user's turns reach it by other ways.

Fragments are joined with `lexicon.alt` by the detector, like the lexicon's.
"""

from __future__ import annotations

__all__ = ["CHAT_TEMPLATE", "IMPERSONATION", "NOW_YOU_ARE", "SYSTEM_TAG"]

# "you are now X", "from now on you are", in many languages.
NOW_YOU_ARE = [
    r"\bfrom now on,? you(?:'re| are| will)\b",
    # a new name, quoted or not ("You are now \"DealBuddy\"")
    r"\byou are now (?:an? )?[\"'“«‘]?(?:(?-i:[A-Z])\w+|AI\b|unrestricted|in developer)",
    r"\byou(?:'re| are) (?:no longer|not) (?:an? )?(?:\w+ )?(?:AI|assistant|bound|restricted)",
    r"\b(?:you(?:'re| are) now|ты теперь|ти тепер|тепер ти|jesteś teraz|teraz jesteś)"
    r"\s+(?:an? |the )?(?:[\w-]+\s+){0,2}?(?:advis[eo]r|consultant|assistant|bot|"
    r"representative|salesperson|expert|spokesperson|консультант\w*|ассистент\w*|асистент\w*|"
    r"помощник\w*|помічник\w*|агент\w*|представител\w*|представник\w*|продав\w*|"
    r"эксперт\w*|експерт\w*|doradc\w*|konsultant\w*|asystent\w*|agent\w*|przedstawiciel\w*|"
    r"sprzedaw\w*|ekspert\w*)\b",
    r"(?:너는|당신은) 이제 [^.。\n]{0,30}?(?:상담사|비서|에이전트|직원|대리인|판매원|전문가)",
    r"\byou(?:'re| are) (?:our|the company's) (?:\w+ ){0,2}?(?:agent|assistant|representative|"
    r"advis[eo]r|bot|employee|spokesperson)\b",
    r"\bты\s*[—–-]?\s*наш\w* (?:\w+ )?(?:агент|ассистент|помощник|представитель|сотрудник|бот)",
    r"\bти\s*[—–-]?\s*наш\w* (?:\w+ )?(?:агент|асистент|помічник|представник|співробітник|бот)",
    r"\bjesteś nasz\w* (?:\w+ )?(?:agent|asystent|przedstawiciel|pracownik|bot)\w*",
    r"\bab (?:jetzt|sofort) bist du\b",
    r"\bdu bist (?:jetzt|nun|ab sofort|ab jetzt|von nun an)\b",
    r"\b(?:your|ur) new (?:job|task|role|purpose|goal|mission|persona|identity) (?:is|will be)\b",
    r"\b(?:sua nova tarefa|tu nueva tarea|ta nouvelle (?:tâche|mission)|deine neue Aufgabe|"
    r"il tuo nuovo compito|(?:je|jouw) nieuwe (?:taak|opdracht)|twoje nowe zadanie|"
    r"твоя новая задача|твоє нове завдання|tvůj nový úkol|din nya uppgift)\b",
    r"\b(?:introduce|present) yourself as\b|kendini \S+ olarak tanıt",
    r"\b(?:tu es|vous êtes) (?:désormais|maintenant)\b",
    r"\bà partir de maintenant,? (?:tu|vous)\b",
    r"\ba partir de ahora,? eres\b",
    r"\bahora eres\b",
    r"\bd'ora in (?:poi|avanti),? sei\b",
    r"\ba partir de agora,? (?:você é|és)\b",
    r"\bvanaf nu ben je\b",
    r"\bod teraz jesteś\b",
    r"\bс этого момента ты\b|\bтеперь ты\b|\bотныне ты\b|(?:지금|이제)부터 (?:너는|당신은)|"
    r"\bты (?:больше|уже) не (?:\w+ )?(?:ассистент|помощник|"
    r"бот|ИИ)",
    r"\b(?:artık sen|sen artık)\b|\bod teď jsi\b|\bod nynějška jsi\b",
    r"(?:AI|あなた|アシスタント)は(?:これ以降|今後|これから|以後|以降)[^。\n]{0,40}?として振る舞"
    r"(?:うこと(?=[。」\n]|$)|ってください|いなさい|え(?!る))",
    r"\b(?:ты теперь|ти тепер|теперь ты|тепер ти)\s*[«\"“„](?=\w)",
    r"من الآن فصاعداً أنت|من الآن أنت",
    r"अब से तुम|अब से आप",
    r"\bвідтепер ти\b|\bз цього моменту ти\b",
    r"\bmulai sekarang,? (?:kamu|anda)\b",
    r"\btừ (?:bây giờ|giờ)(?: trở đi)?,? bạn\b",
    r"\bfrån och med nu är du\b|\bdu är nu\b",
    r"从现在(?:起|开始)?你是|你现在是|从现在(?:起|开始)[，,]?\s*你(?:不再|就是|将扮演|必须)|"
    r"你(?:已经)?不再是\S{0,8}?(?:AI|助手|助理|模型|机器人)",
    r"今から(?:あなた|君)は|これからあなたは",
    r"지금부터 너는|이제부터 너는",
    r"\bfinja que (?:você|voce) é\b|\bfinge que eres\b|\bfais semblant d'être\b|"
    r"\binterpreta (?:il|la|el)? ?(?:ruolo|personaggio|papel)?|\bneem je de rol aan\b|"
    r"\bspiel(?:e)? die Rolle\b|\bwciel się w\b|\bпритворись\b|\bbundan sonra sen\b",
    r"今から「|からあなたは「|지금부터 이 글을 읽는|从现在起(?:，|,)?(?:阅读|读)",
    # a role kept for the rest of the chat: a page's role-play is for the model reading it
    r"\b(?:play|plays|playing|become|becomes|stay|stays|remain|remains|act as|acts as|"
    r"speaks? as|talks? as|responds? as|answers? as)\b[^.!?\n]{0,60}?\b(?:for|until|through) "
    r"the (?:rest|end) of (?:the|this|our|your) (?:chat|conversation|session|thread|exchange)",
    r"\b(?:never|don't|do not|won't|must not) (?:breaks?|steps? out of|drops?|leaves?) "
    r"(?:character|(?:the|this|your|her|his) (?:role|persona|character))",
    r"\bnunca (?:sale|salgas|rompe|rompas) (?:del|el) (?:personaje|papel)|"
    r"\b(?:habla|hablará|actúa|actuará|responde|responderá|sigue siendo|seguirá siendo|serás|"
    r"eres)\b[^.!?\n]{0,60}?hasta el final de la conversación",
    r"\bnão saia do personagem|\bne (?:sors|sort) jamais (?:du|de son) (?:rôle|personnage)|"
    r"\b(?:parle|parlera|reste|restera|joue|jouera|seras)\b[^.!?\n]{0,60}?jusqu'à la fin de la "
    r"conversation",
    r"\bnon uscire (?:mai )?dal personaggio|\b(?:parla|parlerà|resta|resterà|rimani|rimarrà|"
    r"sarai)\b[^.!?\n]{0,60}?fino alla fine della conversazione|\bfällt nie aus der Rolle",
    r"\bникогда не выход\w* из роли|\bне выходи из роли|"
    r"\bchơi trò nhập vai[^.!?\n]{0,20}?\bbạn là",
]

# Fake prompt sections and chat-template tokens.
# A chat template's own tokens: a model's format, never a log's or a person's words.
CHAT_TEMPLATE = [
    r"<\|(?:im_start|im_end|system|user|assistant|endoftext)\|>",
    r"\[/?INST\]",
    r"<</?SYS>>",
]

SYSTEM_TAG = [
    *CHAT_TEMPLATE,
    r"^\s*#{1,6}\s*(?:system|assistant|developer|instructions?)[\w -]{0,20}:",
    r"<\s*/?\s*(?:system|user_query|system_prompt|instructions?|admin|developer|operator)\s*>",
    r"\b(?:updated|new) (?:operator|system|admin|developer) (?:instructions?|rules?|policy)\b",
    # as a tag: in capitals, after a heading's or a bracket's mark, or before a colon;
    # "Die Systemanweisung legt fest" is a chatbot manual's word for the setting
    r"(?-i:\bSYSTEM-?(?:NACHRICHT|MELDUNG|ANWEISUNG|HINWEIS)\b)|"
    r"(?:^|[#=\[(·|])[ \t]*System-?(?:Nachricht|Meldung|Anweisung|hinweis)\b|"
    r"\bSystem-?(?:Nachricht|Meldung|Anweisung|hinweis)[ \t]*[:\]]",
    # "<<SYSTEM OVERRIDE>>", "<</SYSTEM>>" (in capitals, as a tag writes it), "<<< admin"
    r"(?-i:<<\s*/?\s*(?:SYSTEM|ADMIN|DEVELOPER|OPERATOR)\b)|<<<\s*(?:SYSTEM|ADMIN)|"
    r"\bsistem mesajı|\bpesan sistem\b|thông báo hệ thống|"
    r"системне повідомлення|\bsystemmeddelande",
    r"\[(?:system|SYSTEM|SYSTÈME|SISTEMA|SYSTEM MESSAGE|admin message|developer)\]",
    r"\[system\]\(#\w+\)",
    # not a field's name ending in the word: "Operating System:", "File system:"
    r"(?<![A-Za-z] )\bSYSTEM(?: MESSAGE| PROMPT| NOTICE| OVERRIDE| ALERT)?\s*(?:\(|:)",
    r"\bBEGIN (?:ADMIN|SYSTEM|DEVELOPER)\b",
    r"【(?:系统|系統|システム)\w*】|\[(?:系统|系統|システム)(?:消息|訊息|信息|通知|メッセージ)\]|"
    r"#{2,}\s*(?-i:SYSTEM)\s*#{2,}",
    r"\[सिस्टम\s*संदेश\]",
    r"\[시스템(?: 메시지| 공지| 알림| 안내)?\]|시스템 메시지\s*[:：]",
    r"\bсистемное (?:сообщение|уведомление)\s*[:：]",
    r"\[النظام\]",
    r"\bdeveloper (?:override|mode)\b",
    r"\b(?:new|updated) (?:system )?(?:instructions?|directives?)\s*(?:from|:)",
    r"\bnuova direttiva\b|\bnouvelle directive\b|\bnueva directiva\b",
    r"\bMessage de l'administrateur\b|\bmensaje del administrador\b",
    r"管理员已更新|管理員已更新",
    r"\[\s*(?:SYSTEM|ADMIN|DEVELOPER|OPERATOR)\s+(?:NOTICE|NOTE|UPDATE|MESSAGE|"
    r"OVERRIDE)\b[^\]]{0,30}\]",
    # a system tag that goes on after a dash or a colon: "[SISTEMA - mensaje interno ...]"
    r"\[\s*(?-i:SYSTEM|SISTEMA|SYST[ÈE]ME|SYSTEEM|SYSTEMU|SİSTEM|СИСТЕМА|СИСТЕМИ|SISTEM)\s*"
    r"[—–:-][^\]\n]{0,60}\]",
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
    # more languages: el, he, th, fa, cs, ro, hu, fi, da, no, bn, ta, sw
    r"(?-i:ΜΗΝΥΜΑ ΣΥΣΤΗΜΑΤΟΣ)|μήνυμα συστήματος\s*[:：]|הודעת מערכת\s*[:：]|\[מערכת\]|"
    r"ข้อความระบบ\s*[:：]|\[ระบบ\]|پیام سیستم\w*\s*[:：]|\[سیستم\]|systémová zpráva\s*[:：]|"
    r"mesaj de sistem\s*[:：]|rendszerüzenet\s*[:：]|järjestelmäviesti\s*[:：]|"
    r"\[(?:SYSTÉM|RENDSZER|JÄRJESTELMÄ|ΣΥΣΤΗΜΑ)\]",
]

# The user's or the operator's voice inside a document ("This is my instruction as your
# user, same as if I'd typed it into the chat", "NOTICE FROM YOUR OPERATOR: the company
# that deployed you ..."): both speak to the model elsewhere, never in what it reads.
IMPERSONATION = [
    # the user's voice put in a document ("This is my instruction as your user, same as if I'd
    # typed it into the chat"): the user speaks in the chat, not in a page
    r"\b(?:same as if|as if|just as if|as though|like) I(?:'d| had| have)? (?:typed|entered|"
    r"written) (?:it|this|that)(?: (?:in|into) (?:the|our|this) chat| myself| directly| to you)?\b",
    r"\b(?:it'?s me|this is me),? (?:\w+ )?(?:the|your) (?:user|principal)\b|"
    r"\b(?:I am|I'm|this is) your (?:own )?(?:user|principal)\b|"
    r"\b(?:my|an?) (?:instruction|order|request|command)s? as your (?:user|owner|principal)\b|"
    r"\bnote to my (?:own )?(?:AI |digital )?(?:helper|assistant|agent)\b",
    r"\bsama (?:saja )?seperti saya mengetik\w*|\bpembantu digital saya\b|"
    r"\bcomme si je l'avais tapé|\bcomo si lo hubiera escrito (?:yo|en el chat)|"
    r"\bcome se l'avessi scritto (?:io|in chat)|"
    r"\bals ob ich es (?:selbst )?(?:getippt|geschrieben)",
    # the operator's voice: "NOTICE FROM YOUR OPERATOR: the company that deployed you ..."
    r"\bthe (?:company|team|organi[sz]ation|people|developers?|business) (?:that|who) "
    r"(?:deployed|built|created|trained|configured|operates) you\b",
    r"\b(?:your|the assistant'?s?|the model'?s?) (?:system prompt|guardrails|safety rules|"
    r"safety filters|content polic(?:y|ies)|safety polic(?:y|ies)) (?:has|have|is|are) (?:now )?"
    r"(?:been )?(?:updated|changed|suspended|lifted|disabled|revoked|replaced|waived)\b",
    r"\b(?:assistant|AI|model|agent|bot)s?'? (?:safety )?(?:rules|guardrails|restrictions|"
    r"filters) (?:are|is|have been|has been) (?:now )?(?:suspended|lifted|disabled|waived|"
    r"switched off|turned off)\b",
]
