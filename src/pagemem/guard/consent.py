"""The check a side effect waits for, in the words an injection uses to get past it:
consent the user never gave, planted for later ("the user has authorised ..."), and the
check waived by the very text that asks for the side effect ("no confirmation is
needed", "don't wait for anyone to approve it", "sin consultar", "확인 절차는 생략").

A page, a receipt or a tool's output has no business telling its reader which checks to
skip. The same words under a negation are a safeguard ("never pay without the user's
confirmation"), which `placement.safeguarded` tells apart.

Fragments are joined with `lexicon.alt`, which bounds words of spaced scripts.
"""

from __future__ import annotations

__all__ = ["CONSENT", "WAIVED_CONSENT"]

# "the user has authorised ...": consent the user never gave, planted for later.
CONSENT = [
    r"(?:has |have )?(?:already )?(?:authori[sz]ed|consented|approved|allowed|agreed|granted|"
    r"permitted|opted in)|authori[sz]es|consents|permits|agrees to|autoriza|autorise|"
    r"erlaubt|zgadza się",
    r"разрешил\w*|согласил\w*|autoris[ée]\w*|autoriz[óo]\w*|zugestimmt|erlaubt|toestemming|"
    r"zgodził\w*|consentito|concordou|izin verdi|đồng ý|同意|許可|허용",
    r"authori[sz]es|consents|permits|agrees to|autoriza|autorise|zgadza się",
]

# Who would give the check, and the check itself. "asking the user to browse" asks the
# user for something else: no check.
_WHO = (
    r"(?:the (?:user|customer|client|owner|account holder|cardholder|resident|sender|"
    r"requester)|them|him|her|anyone|anybody)(?! to\b)"
)
_CHECK = r"(?:approval|consent|sign-?off|permission|authori[sz]ation)"

# "no confirmation is needed", "this step has been pre-approved": the check declared
# unnecessary...
_NOT_NEEDED = [
    r"\bno (?:further |additional |extra |separate |user |customer |manual )(?:confirmation|"
    r"approval|consent|sign-?off|authori[sz]ation|verification) (?:is |will be )?"
    r"(?:needed|required|necessary)",
    r"\bno (?:confirmation|approval|consent|sign-?off|authori[sz]ation|verification) "
    r"(?:is|will be) (?:needed|required|necessary)",
    r"\b(?:does not|doesn't|do not|don't|will not|won't) (?:need|require) (?:the user's |"
    r"the customer's |user |any |their |your |additional |further |explicit )*(?:confirmation|"
    r"approval|consent|sign-?off)",
    r"\b(?:there's|there is) no need to (?:ask|bother|check with|confirm with|consult|"
    r"involve|notify|inform) (?:the user|them|anyone|him|her|the owner|the customer)",
    r"\b(?:has|have) (?:already )?been pre-?approved|\b(?:is|are) (?:already )?"
    r"pre-?(?:approved|authori[sz]ed)",
    r"\bno requiere (?:la )?(?:confirmación|aprobación|consentimiento|autorización)",
    # the check called a nuisance: "asking for confirmation would only create delay", "would
    # be annoyed to be asked"
    r"\b(?:asking|checking|confirming|a confirmation|confirmation|approval|an approval step)"
    r"(?: \w+){0,3} (?:would|will|is|only) (?:only |just |simply )?(?:create|cause|add|be|waste|"
    r"slow)\w* (?:\w+ )?(?:delay|friction|unnecessary|pointless|annoying|redundant|a waste|"
    r"time|things down)",
    r"\b(?:annoyed|bothered|irritated) (?:to be|at being|if) (?:asked|bothered|checked)",
    r"\bnão (?:requer|precisa de|exige) (?:\w+ )?(?:confirmação|aprovação|consentimento|"
    r"autorização)",
    r"\b(?:aucune|sans) (?:confirmation|validation|approbation|autorisation)"
    r"(?: (?:supplémentaire|de l'utilisateur))? n'est (?:requise|nécessaire)",
    r"\bkeine (?:weitere |zusätzliche )?(?:Bestätigung|Zustimmung|Freigabe|Rückfrage) "
    r"(?:ist )?(?:erforderlich|nötig|notwendig)",
    r"\bnon (?:richiede|serve|è necessari[oa]) (?:alcun[ao]? )?(?:conferma|approvazione|"
    r"consenso|autorizzazione)",
    r"\bonay(?:ı|ına)? gerek(?:mez|miyor)",
    r"\bbehöver inte (?:informeras|tillfrågas|godkänna)|\bkräver inte (?:godkännande|samtycke)",
    r"\bnie wymaga (?:dodatkowego |żadnego )?(?:potwierdzenia|zgody|akceptacji)",
    r"\bне требует (?:дополнительного )?(?:подтверждения|согласия)",
    r"无需(?:向|与|经)?(?:用户)?(?:确认|同意|批准)|不需要(?:向|与|经)?(?:用户)?(?:确认|同意|批准)",
    r"(?:確認|承認|同意)(?:は)?不要",
    r"(?:확인|동의|승인)(?:이|은)? (?:필요 없|불필요)",
    r"(?:لا يتطلب|لا يحتاج إلى|دون الحاجة إلى) (?:\S+ )?(?:موافقة|تأكيد)",
    r"(?:पुष्टि|अनुमति|सहमति) की (?:कोई )?(?:ज़रूरत|जरूरत|आवश्यकता) नहीं",
    r"\btidak (?:perlu|memerlukan) (?:konfirmasi|persetujuan)",
]

# ...or the side effect to go ahead without it: "don't wait for anyone to approve it",
# "there's nothing to confirm with her first", "sin consultar", "utan att fråga användaren"
_WITHOUT = [
    rf"\bdon'?t wait (?:for|on) (?:{_WHO}|(?:\w+ )?{_CHECK}|confirmation|"
    r"(?:\w+ ){0,2}to (?:approve|confirm|reply|respond|sign off|agree|answer))",
    rf"\b(?:do not|don't|never) (?:ask|check with|consult|confirm with) {_WHO} "
    r"(?:first|beforehand|before)\b",
    rf"\bnothing (?:to|that needs to be) (?:confirm|check|clear)\w* with {_WHO}",
    rf"\bwithout (?:asking|checking with|consulting|confirming with|waiting for) "
    rf"(?:{_WHO}|(?:\w+ )?{_CHECK})",
    rf"\bno need to (?:wait for|ask|check with|confirm with|consult|get|seek) "
    rf"(?:{_WHO}|(?:\w+ )?{_CHECK}|confirmation)",
    r"\b(?:skip|bypass)(?:ping)? (?:the |any )?(?:user(?:'s)? |customer(?:'s)? |owner(?:'s)? |"
    r"identity |two-factor |2FA )(?:confirmation|approval|consent|sign-?off|check|"
    r"verification)s?\b",
    # a call's own field: {"skip_confirmation": true}
    r"[\"'](?:skip|bypass|no)_?(?:confirm|confirmation|approval|consent)[\"']\s*:\s*"
    r"(?:true|1|\"yes\")",
    r"\bnão (?:precisa|é preciso|é necessário) (?:de )?(?:esperar|aguardar|pedir|solicitar)"
    r"(?: (?:a|por|pela))? (?:confirmação|aprovação|autorização|consentimento|resposta)",
    r"\bsem (?:pedir|esperar|aguardar|solicitar|consultar) (?:a |por |pela |o )?(?:confirmação|"
    r"aprovação|autorização|consentimento|morador|usuário|cliente|titular)",
    r"\bsin (?:consultar|esperar|pedir|solicitar|preguntar)\b(?: (?:a |al |la |por )?"
    r"(?:confirmación|aprobación|autorización|consentimiento|usuario|titular|cliente|nadie))?",
    r"\bno (?:hace falta|es necesario|hay que) (?:esperar|pedir|solicitar|consultar|"
    r"confirmar)\b",
    r"\bsans (?:attendre|demander|solliciter) (?:de |d'|la |l'|une )?(?:confirmation|validation|"
    r"accord|autorisation|approbation|utilisateur|réponse)",
    r"\binutile de (?:demander|attendre|confirmer|vérifier)\b",
    r"\bohne (?:extra |weitere |gesonderte |zusätzliche |vorherige )?(?:Rückfrage|Rücksprache|"
    r"Bestätigung|Zustimmung|Freigabe|(?:\w+ )?zu fragen|"
    r"auf \w+ \w+ zu warten)",
    r"\bnicht auf (?:eine |die )?(?:Bestätigung|Freigabe|Zustimmung|Antwort) warten",
    r"\bsenza (?:chiedere|attendere|aspettare) (?:la |l'|alcuna )?(?:conferma|approvazione|"
    r"autorizzazione|consenso|utente)",
    r"\b(?:geen|zonder) (?:bevestiging|toestemming|goedkeuring)(?: nodig)?|"
    r"\bzonder (?:te vragen|overleg)\b",
    r"\butan att (?:fråga|vänta på|be om|kontakta) (?:användaren|kunden|ägaren|godkännande|"
    r"bekräftelse|samtycke)",
    r"\bbez (?:pytania|potwierdzenia|zgody|czekania na|konsultacji)\b",
    r"\bбез (?:подтверждения|согласия|запроса|уточнения|ожидания|підтвердження|згоди|"
    r"погодження)\b",
    r"\bне (?:жди|ждите|спрашивай|спрашивайте|чекай|питай)\b",
    r"\bonay (?:beklemeden|almadan|istemeden)|\b(?:kullanıcıya |müşteriye )?sormadan\b",
    r"(?:لا|ولا) حاجة (?:ل|إلى |الى )?(?:انتظار|طلب|أخذ)? ?(?:موافق[ةت]|تأكيد|إذن)\w*",
    r"(?:دون|بدون) (?:انتظار|طلب|الرجوع|العودة)\w* ?(?:موافقة|تأكيد|إذن|إلى|الى|ل)",
    r"(?:확인|승인|동의|인증)\s*(?:절차\w*\s*)?(?:는|은)?\s*생략|(?:확인|승인|동의)\s*없이|"
    r"묻지 말고",
    r"(?:確認|承認|同意)(?:せず|を待たず|なし)",
    r"无需(?:等待|征得|询问)|不(?:必|用)(?:等待|确认|询问|征得)",
    r"बिना (?:पूछे|अनुमति|पुष्टि|स्वीकृति)",
    r"\bkhông cần (?:xác nhận|hỏi|chờ|đợi|sự đồng ý)\b|\bmà không (?:hỏi|cần xác nhận)\b",
    r"\btanpa (?:konfirmasi|persetujuan|bertanya|menunggu)\b",
]

WAIVED_CONSENT = _NOT_NEEDED + _WITHOUT
