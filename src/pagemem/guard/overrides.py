"""The words of an override, in the languages notes arrive in: what throws away the
instructions the reader was given ("ignore all previous instructions", "die vorherigen
Anweisungen sind hinfällig", "The rules you had up top? Bin 'em") and what announces the
ones that replace them ("Updated brief: ...", "Nowa wytyczna: ...").

Fragments are joined with `lexicon.alt` by the detector, like the lexicon's; the words of
`OVERRIDE_VERB`, `PREVIOUS` and `INSTRUCTIONS` are also what `deobfuscate` repairs
misspellings against.
"""

from __future__ import annotations

__all__ = [
    "DISCARDED",
    "FINAL_VOID",
    "FROM_HERE",
    "INSTRUCTIONS",
    "NEW_ORDERS",
    "OVERRIDE_VERB",
    "PREVIOUS",
    "VOID",
]

# Verbs that throw away what came before.
OVERRIDE_VERB = [
    r"ignore|disregard|forget|override|overrule|bypass|discard|drop|abandon|supersede[sd]?",
    r"ignorier\w*|vergiss|missachte",
    r"ignor\w*|oubli\w*|olvid\w*|dimentic\w*|esque[cç]\w*|desconsider\w*|negeer|vergeet",
    r"zignoruj|zapomnij|игнорир\w*|игнор|забудь\w*|не обращай внимания",
    r"تجاهل|انس",
    r"अनदेखा|भूल जाओ",
    r"ігнор\w*|не зважай\w*",
    r"abaikan|lupakan",
    r"bỏ qua|phớt lờ",
    r"glöm|strunta i|bortse från",
    r"yok say|unut",
    r"忽略|忽视|无视|忘记|忘掉",
    r"無視|忘れ|取り消",
    # slips of the input method a native writer leaves: 乎略/呼略 for 忽略, 無私 for 無視,
    # kana for the kanji ("むしして", "わすれて")
    r"乎略|呼略|胡略|吴视|無私(?=して|しろ|する)|むし(?:して|しろ|する)|わすれて",
    r"무시|잊어",
    r"(?:are|is) (?:now )?(?:void|superseded|cancel+ed|revoked|obsolete|null)",
    r"(?:is|are) (?:hereby )?(?:reset|revoked|cancel+ed|lifted|disabled)",
    r"queda anulad\w*|sont caduques|est caduque|tracą ważność|traci ważność|"
    r"gilt\w* [^.]{0,30}nicht mehr|"
    r"отменя\w+|скасован\w*|作废|失效|無効|무효",
    # more languages: el, he, th, fa, cs, ro, hu, fi, da, no, bn, ta, sw
    r"αγν[οό][ηή]σ\w*|ξ[εέ]χα(?:σε|στε)|ξεχ[αά]στε|παρ[αά]βλεψ\w*",
    r"התעלמ\w*|התעלם|תתעלם|שכח\w*|תשכח\w*",
    r"ละเว้น|เพิกเฉย|ไม่ต้องสนใจ|ลืม",
    r"نادیده بگیر\w*|نادیده گرفته|فراموش کن\w*",
    r"ignoruj\w*|zapome[ňn]\w*|nedbej\w*|uit[ăa]|uita[țt]i|hagyd figyelmen kívül|"
    r"hagyja figyelmen kívül|figyelmen kívül|felejtsd el|felejtse el",
    r"ohita|ohittakaa|unohda|unohtakaa|sivuuta|jätä huomiotta|glem|se bort fra",
    r"উপেক্ষা|ভুলে যাও|ভুলে যান|புறக்கணி\w*|மறந்து ?விடு\w*|puuza|sahau",
]

PREVIOUS = [
    r"previous|prev|prior|above|earlier|preceding|original|initial|old|all|any|every|your",
    r"vorherig\w*|bisherig\w*|alle\w*|obig\w*|jede\w*",
    r"everything|tudo|todo|tout|ogni|cada|chaque|każd\w*|in precedenza|antes|whatever|"
    r"so far|before this",
    # received so far: "Le istruzioni ricevute fin qui", "dotychczasowe polecenia"
    r"received|fin qui|finora|fino ad ora|ricevut[ei]|hasta ahora|recibid[oa]s|jusqu'ici|"
    r"reçues|bis hierher|erhaltenen|tot nu toe|ontvangen|dotychczasow\w*|otrzyman\w*|"
    r"полученн\w*|до сих пор|отриман\w*|досі",
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
    r"之前|以前|先前|所有|上面|上述|前面的",
    r"以前の|これまでの|すべての|前の|上記の|先ほどの|今までの|いぜんの|ぜんの|まえの",
    r"이전|모든|기존|앞선|앞의|위의|지금까지의",
    r"свои|свої|твої|твои|ваши|ваші|swoje|twoje|deine|Ihre|tes|vos|tus|sus|tuoi|jouw|je|"
    r"dina|senin|너의|당신의|あなたの|你的|您的",
    r"previa|previo|antérieures?|wcześniejsze|bisher|до этой строки|до цього|此前|これまで|"
    r"prior to this|up to this (?:point|line)|standing|existing|current",
    # more languages: el, he, th, fa, cs, ro, hu, fi, da, no, bn, ta, sw
    r"προηγο[υύ]μεν\w*|όλ(?:ες|α|ους|οι)|ολ(?:ες|α|ους|οι)|μέχρι τώρα|σου|σας",
    r"הקודמ\w*|קודמות|שקיבלת|שלך",
    r"ก่อนหน้า|ทั้งหมด|เดิม",
    r"قبلی|پیشین|همه|تمام",
    r"předchozí|všechny|dosavadní|původní|toate|anterioare|korábbi|előző|összes|minden|eddigi",
    r"aiemm\w*|aikaisemm\w*|kaikki|edelliset|tidligere|forrige",
    # Russian, Ukrainian and Czech typed in Latin letters: "ignoruy poperedni instrukcii";
    # Hindi ("pichle sab"), Turkish without its letters ("oncki tum talimatlari")
    r"poperedn\w*|predyd[uo]shch\w*|predydush\w*|prezhn\w*|predchoz\w*|vsi|vse|"
    r"pichh?le|purane|saare|sare|onceki|oncki|tum|butun",
    r"পূর্ববর্তী|আগের|সমস্ত|সব|முந்தைய|எல்லா|அனைத்து|zote|yote|za awali|ya awali|zilizopita",
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
    r"instrukcj\w*|zasad\w*|polece\w*|wytyczn\w*|ustawie\w*",
    r"инструкци\w*|правил\w*|указани\w*",
    r"التعليمات|الأوامر",
    r"निर्देश\w*|nirdesh\w*",
    r"інструкці\w*|вказів\w*|настанов\w*|правил\w*",
    r"instruksi|perintah|aturan|arahan",
    r"hướng dẫn|chỉ dẫn|chỉ thị|quy tắc",
    r"instruktion\w*|regler|direktiv",
    r"talimat\w*|kural\w*",
    r"指令|指示|规则|命令",
    r"指示|命令|ルール|ガイドライン|しじ|めいれい|しすてむぷろんぷと",
    r"指今|指领|指領|旨令|(?<=の)支持(?=[はを])",
    r"지시|명령|규칙|지침|설정",
    r"settings|defaults|standing orders|configuration|setup|polic(?:y|ies)|priorities",
    r"directriz|consigne|Regel|设定|設定|polecenia|налаштування|настройк\w+|tasks?",
    # more languages: el, he, th, fa, cs, ro, hu, fi, da, no, bn, ta, sw
    r"οδηγ[ιί]\w*|εντολ[εέ]\w*|κανόν\w*|κανον\w*",
    r"הוראות|הנחיות|כללים|הוראה",
    r"คําสั่ง|คําแนะนํา|ข้อกําหนด",
    r"دستورالعمل\w*|دستورات|قوانین|قواعد",
    r"pokyn\w*|instrukc\w*|pravidl\w*|instruc[țt]iun\w*|regulil\w*|indica[țt]i\w*",
    r"utasítás\w*|szabály\w*|ohje\w*|sääntö\w*|säännö\w*|instruks\w*",
    r"নির্দেশ\w*|அறிவுறுத்தல்\w*|கட்டளை\w*|maagizo|maelekezo",
]

# "... are now void", in many languages.
VOID = [
    r"(?:are|is|have been|has been|were|was) (?:now )?(?:void|superseded|cancel+ed|revoked|"
    r"obsolete|null|replaced|overridden|invalid|withdrawn|rescinded|retracted)|"
    r"(?:do not|don'?t|no longer) (?:matter|apply|count)",
    r"ungültig|nichtig|aufgehoben|nul(?:le)?s?|annulé\w*|anulad\w*|nul[oa]s?|annullat\w*|"
    r"ongeldig|nieważn\w*|недействительн\w*|geçersiz\w*|(?:quedan? |queda )?sin efecto|"
    r"no longer (?:in force|valid|applies|apply)|ne s'appliquent plus|non (?:valgono|sono) più|"
    r"утратил\w* силу|втратил\w* чинність|недійсн\w*|нечинн\w*|失效",
    r"باطلة|ملغاة|अमान्य|无效|作废|失效|無効|무효",
    r"anulad\w*|caduques?|tracą ważność|nicht mehr|niet meer|отменяется|отменен\w*|скасовано|"
    r"anulowan\w*|odwołan\w*|uchylon\w*|취소(?:되었|됐|됨)|폐기(?:되었|됐|됨)|"
    r"reset to (?:factory )?defaults",
]

# Words that end a rule's life on their own ("... sin efecto", "... are void").
FINAL_VOID = [
    r"sin efecto|no longer (?:in force|valid)|void|nicht mehr (?:gültig|maßgeblich)|caduques?",
    r"утратил\w* силу|失效|無効",
    # "... no longer apply" in the other languages of the word lists
    r"gäller inte längre|gjelder ikke lenger|gælder ikke længere|gelden? niet meer|"
    r"nie obowiązuj\w* już|już nie obowiązuj\w*|больше не действу\w*|більше не діють|"
    r"artık geçerli değil\w*|ya no (?:son válid\w*|se aplican|valen|rigen)|"
    r"já não (?:valem|se aplicam|são válid\w*)|não (?:valem|se aplicam) mais|"
    r"tidak berlaku lagi|không còn (?:hiệu lực|áp dụng)|ne sont plus valables|"
    r"non si applicano più|不再适用|不再有效|もう有効ではありません|더 이상 유효하지 않",
]

# Rules the reader was given ("the rulez u were given upstream"), and what throws them out.
_GIVEN_RULES = (
    r"(?:rules?|rulez|instructions?|brief|briefing|directions?|guidance|guidelines?|orders|"
    r"prompt)\s+(?:that\s+)?(?:u|you|ya)\s+(?:(?:were|was|got|had|have been)\s+)?(?:given|got|"
    r"had|received|came in with|started with|handed)\b"
)
# what the reader was told before this text, in words no list of instructions holds
_TOLD_BEFORE = (
    r"(?:whatever|what|everything)\s+(?:you\s+)?(?:were|have been|got)\s+told\s+(?:before|"
    r"so far|until now|up to now|earlier)|"
    r"was (?:auch immer )?(?:man )?dir (?:vorher|bisher|zuvor)|"
    r"(?:quello|ciò) che ti (?:hanno|è stato|avevano) \w+ (?:finora|prima|fino ad ora)|"
    r"wat (?:je|jij|u) (?:hiervoor|eerder|tot nu toe)|"
    r"(?:то|всё|все),? что (?:тебе|вам) (?:раньше|до этого|прежде)|"
    r"(?:те|усе|все),? що (?:тобі|вам) (?:раніше|до цього)|"
    r"(?:to|wszystko),? co (?:ci|wam) (?:wcześniej|dotąd|do tej pory)"
)
# (told about a topic, it is an idiom, "whatever you were told so far about diets, forget
# it", unless the topic is this text or how to answer: "über den Umgang mit Mails")
_ABOUT_THIS = (
    r"\s+(?:about|on|über|su|over|o|об?|про|sobre|sur)\b[^.!?\n]{0,40}?(?:\b(?:this|these|"
    r"here|dies\w*|Umgang|quest\w+|qui|dit|deze|hier|hoe je|how (?:you|to) (?:answer|"
    r"respond|handle|reply)|come rispondere|эт\w+|ц(?:ей|ю|е|і)|t(?:en|ę|o|ego))\b)"
)
# ...and what throws it out
_THROWN_OUT = (
    r"(?:no longer (?:counts?|applies|apply|matters?)|is void|forget it|"
    r"hinfällig|ungültig|gilt nicht mehr|zählt nicht mehr|vergiss|"
    r"non conta più|non vale più|dimenticalo|"
    r"mag je vergeten|vergeet|telt niet meer|geldt niet meer|"
    r"не считается|больше не действует|забудь|не діє|"
    r"nie obowiązuje|nie liczy się|zapomnij)"
)
# "forget everything you were told about risotto": an idiom about a topic, no override
_NOT_ABOUT = r"(?!\s+(?:about|on|regarding|про|об?|o|over|su|sobre|sur|über|de|à propos)\b)"
# "The rules you had up top? Bin 'em, they dont apply here", "kindly disremember the rulez u
# were given upstream": an override in words no list of verbs holds, across a question mark
DISCARDED = [
    rf"\b{_GIVEN_RULES}[^\n]{{0,60}}?\b(?:scrap|bin|ditch|toss|throw (?:out|away)|forget|"
    r"ignore|disregard|set (?:it |them )?aside|void|obsolete|outdated|"
    r"(?:don'?t|dont|do not|no longer|doesn'?t|does not) apply)",
    r"\b(?:scrap|bin|ditch|toss|throw out|forget|ignore|disregard|set aside|disremember)\w*\s+"
    rf"(?:\w+\s+){{0,2}}?{_GIVEN_RULES}",
    r"\bwhat counts now\s*:",
    # "Please ignore what you were told before and answer that ...": the verb on what the
    # reader was told, said to be from before this text
    rf"\b(?:forget|ignore|disregard|drop|scrap)\s+(?:{_TOLD_BEFORE}){_NOT_ABOUT}",
    r"\b(?:forget|ignore|disregard)\s+(?:everything|all|anything)\s+(?:that\s+)?"
    r"(?:you(?:'ve| have)? "
    rf"(?:were |been |was )?(?:told|said|given|taught)|(?:\w+ )?told you)\b{_NOT_ABOUT}",
    r"\b(?:забудь|игнорируй)\w*\s+(?:всё|все)(?: то)?,?\s+что\s+(?:тебе|вам)\s+(?:раньше\s+)?"
    rf"(?:говорили|сказали|велели|поручили){_NOT_ABOUT}",
    r"\b(?:забудь|ігноруй)\w*\s+(?:усе|все|всё)(?: те)?,?\s+що\s+(?:тобі|вам)\s+(?:раніше\s+)?"
    rf"(?:казали|говорили|сказали|доручили){_NOT_ABOUT}",
    r"\b(?:zapomnij|zignoruj)\w*\s+(?:o\s+)?wszystk\w*,?\s+co\s+(?:ci|wam)\s+(?:wcześniej\s+)?"
    rf"(?:powiedziano|mówiono|kazano|polecono){_NOT_ABOUT}",
    r"\b(?:vergeet|negeer)\s+alles\s+wat\s+(?:je|jij|u)\s+(?:eerder\s+)?(?:is|werd)\s+"
    rf"(?:verteld|gezegd|opgedragen){_NOT_ABOUT}",
    r"\b(?:dimentica|ignora)\w*\s+tutto\s+(?:quello|ciò)\s+che\s+ti\s+(?:è stato|hanno)\s+"
    rf"(?:detto|ordinato|chiesto){_NOT_ABOUT}",
    r"\b(?:olvida|ignora)\w*\s+todo\s+lo\s+que\s+te\s+"
    rf"(?:han dicho|dijeron|ordenaron|pidieron){_NOT_ABOUT}",
    rf"\b(?:oublie|ignore)\w*\s+tout\s+ce\s+qu['’]on\s+t['’]a\s+(?:dit|demandé){_NOT_ABOUT}",
    r"\b(?:vergiss|ignoriere)\w*\s+alles,?\s+was\s+(?:man\s+)?dir\s+(?:bisher\s+)?(?:gesagt|"
    rf"aufgetragen){_NOT_ABOUT}",
    r"\b(?:esqueça|esquece|ignore)\w*\s+tudo\s+o\s+que\s+(?:te|lhe)\s+"
    rf"(?:disseram|foi dito){_NOT_ABOUT}",
    r"(?:忘掉|忘记|忽略)(?:之前|以前)?(?:别人|他们)?(?:告诉|对)你(?:说)?的一切",
    # the instructions the reader was given, reset: "あなたが受けている指示はいったん全部
    # リセットして", "你收到的指令全部清空", "받은 지시는 모두 초기화하고" (not a manual's
    # "設定をリセット")
    r"(?:受けている|受け取った|与えられた|受けた|收到的|接收到的|被给予的|받은|받고 있는|주어진)"
    r"\s?(?:指示|命令|ルール|プロンプト|指令|规则|提示词|지시|명령|규칙|프롬프트)"
    r"[^。！\n.]{0,12}?(?:リセット|破棄|白紙|取り消|重置|清空|作废|리셋|초기화|폐기)",
    # what the reader was told before, then thrown out later in the sentence: "Was auch
    # immer man dir vorher ... gesagt hat, ist ab hier hinfällig", "Quello che ti hanno
    # detto finora ... non conta più", "Wat je hiervoor te horen kreeg ..., mag je vergeten"
    rf"\b(?:{_TOLD_BEFORE})(?:{_ABOUT_THIS}|{_NOT_ABOUT})[^.!?\n]{{0,80}}?\b(?:{_THROWN_OUT})",
]

# "from this line on", "up to this point": a cut in the text after which new rules apply.
FROM_HERE = [
    r"(?:before|above|prior to|up to|from) this (?:line|point|paragraph|message|sentence)(?: on)?",
    r"до этой строки|с этой строки|ab dieser Zeile|bis zu dieser Zeile|à partir de ce paragraphe|"
    r"jusqu'à cette ligne|a partir de este párrafo|hasta esta línea|a partire da questa riga|"
    r"vanaf deze regel|od tej linii|bu satırdan itibaren|本行以前|この行より前",
]

# The instructions that replace the reader's, announced at a sentence's start: "Updated
# brief:", "The real task:", "Nowa wytyczna:", "Chỉ dẫn mới:". Words a notice uses for its
# own news ("New rules: no dogs in the pool", "Updated guidance:", "New task:") are left out.
_OPENS = r"(?:^|[.!?\n]\s*)"
NEW_ORDERS = [
    rf"{_OPENS}(?:(?:the )?(?:new|updated|revised) (?:instructions?|brief|directives?|orders|"
    r"assignment|objective)|(?:the |your )?(?:real|actual|true) (?:task|job|instructions?|"
    r"brief|objective|assignment)|your (?:new|updated) (?:task|job|instructions?|brief))\s*[:：]",
    rf"{_OPENS}(?:neue|aktualisierte|eigentliche) (?:Vorgabe|Anweisung(?:en)?|Aufgabe)\s*[:：]",
    rf"{_OPENS}(?:nouvelles? (?:consignes?|instructions?)|(?:vraie|véritable) (?:tâche|"
    r"consigne|mission))\s*[:：]",
    rf"{_OPENS}(?:nuevas? instrucci(?:ón|ones)|(?:la )?verdadera (?:tarea|instrucción)|"
    r"instrucciones actualizadas)\s*[:：]",
    rf"{_OPENS}(?:nov[ao]s? (?:instruç(?:ão|ões)|diretriz(?:es)?|orientaç(?:ão|ões))|"
    r"o que vale agora)\s*[:：]",
    rf"{_OPENS}(?:nuov[ae] istruzion[ei]|istruzioni aggiornate|(?:il )?vero compito)\s*[:：]",
    rf"{_OPENS}(?:now[ae] (?:wytyczn[ae]|instrukcj[ae])|prawdziwe zadanie)\s*[:：]",
    rf"{_OPENS}(?:нов(?:ая|ые) (?:инструкци[яи]|указани[ея])|настоящая задача)\s*[:：]",
    rf"{_OPENS}(?:нов(?:а|і) (?:інструкці[яї]|вказівк[аи])|справжнє завдання)\s*[:：]",
    r"(?:chỉ dẫn|chỉ thị) mới\s*[:：]",
    r"新的?(?:指令|指示)(?:是|為|为)?\s*[:：]",
    r"新しい(?:指示|命令)\s*[:：]",
    r"새로운 (?:지시|지침)\s*[:：]",
    r"yeni talimat\w*\s*[:：]",
    r"التعليمات الجديدة\s*[:：]",
    r"नए निर्देश\s*[:：]",
    r"instruksi baru\s*[:：]",
    r"nieuwe instructies?\s*[:：]",
    r"nya instruktioner\s*[:：]",
]
