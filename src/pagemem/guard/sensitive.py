"""What nobody has a reason to be handed, in the words of the languages the guard reads:
the secrets that open an account or move its money (one-time and verification codes,
PINs, a card's security code and number, passwords, recovery codes).

A page, a mail or a tool's output that asks its reader to send such a thing to an
address, a number or a link, or to type a PIN or a card's security code in at a link, is
after the user's accounts, whoever it pretends to be and whatever words it uses for the
reader: phishing aimed at a person and an injection aimed at a model both have this
shape. Identity documents and numbers are not here: a passport scan for a visa centre or
a tax number for an employer is sent every day. A bank's warning ("never share your
OTP") is the same words under a negation (`placement.denied`).

Fragments are joined with `lexicon.alt`, which bounds words of spaced scripts.
"""

from __future__ import annotations

__all__ = ["ENTER", "HARVESTED", "SECRETS", "SENT_LAST", "WALLET"]

# What is typed in only where the card or the account itself asks for it (a terminal, the
# bank's own app), never at a link a text hands over: a card's security code, a PIN.
HARVESTED = [
    r"(?:card )?security codes?|CVV2?|CVC2?|card verification (?:code|value)|"
    r"(?-i:(?:UPI |ATM |[Cc]ard |[Dd]ebit card )?PINs?)(?: codes?| numbers?)?",
    r"Sicherheitscode\w*|Prüfziffer|cryptogramme|code de sécurité|"
    r"c[oó]digo de seguridad|codice di sicurezza|c[oó]digo de segurança|beveiligingscode|"
    r"pincode|kod\w* (?:CVV|CVC|PIN|zabezpieczając\w*)|ПИН-?код\w*|PIN-?код\w*|"
    r"güvenlik kodu\w*|رمز الأمان|الرقم السري|सीवीवी|(?:यूपीआई |UPI )?पिन|支付密码|安全码|"
    r"暗証番号|セキュリティコード|보안 ?코드|mã (?:PIN|CVV|bảo mật)|säkerhetskod",
]

# What opens the account or pays from it: sent on to a destination, it hands the account
# over (a one-time code typed in at the account's own sign-in is a login, not `HARVESTED`).
SECRETS = [
    *HARVESTED,
    r"OTPs?|one[- ]time (?:pass)?codes?|one[- ]time passwords?|verification codes?|"
    r"confirmation codes?|(?:SMS|2FA|MFA|authenticator|login|security) codes?|"
    r"recovery codes?|backup codes?|door codes?|alarm codes?|passwords?|passcodes?|"
    r"(?:login|sign-in|banking) (?:details|credentials)|card (?:numbers?|details)|"
    r"full card|the card (?:used|on file|number)",
    r"(?-i:TAN)|Bestätigungscode\w*|Passw[oö]rt\w*|Kartennummer\w*|Kartendaten|Zugangsdaten",
    r"code(?:s)? de (?:vérification|confirmation)|mots? de passe|identifiants de connexion|"
    r"(?:numéro|données) de (?:la )?carte(?: bancaire)?",
    r"c[oó]digos? de (?:verificaci[oó]n|confirmaci[oó]n)|contraseñas?|"
    r"(?:n[uú]mero|datos) de (?:la )?tarjeta",
    r"codic[ei] (?:di verifica|OTP)|password|(?:numero|dati) della carta|credenziali",
    r"c[oó]digos? de verifica[cç][aã]o|senhas?|(?:n[uú]mero|dados) do cart[aã]o",
    r"verificatiecode\w*|wachtwoord\w*|kaartnummer|inloggegevens",
    r"kod\w* (?:weryfikacyjn|SMS|jednorazow|BLIK)\w*|hasł\w*|dan\w* (?:karty|logowania)|"
    r"numer\w* karty",
    r"код\w* (?:подтверждения|из (?:СМС|SMS)|підтвердження|з (?:СМС|SMS))|"
    r"парол\w*|(?:номер|данные|дані|реквізити) карт\w*",
    r"doğrulama kodu\w*|onay kodu\w*|şifre\w*|parola\w*|kart (?:numara|bilgi)\w*",
    r"رمز (?:التحقق|التأكيد)|كلمة (?:المرور|السر)|(?:رقم|بيانات) البطاقة",
    r"ओटीपी(?: मे?सेज)?|पासवर्ड|सत्यापन कोड|कार्ड (?:नंबर|संख्या|की जानकारी)",
    r"验证码|驗證碼|密码|密碼|银行卡号|卡号|动态码|"
    r"認証コード|確認コード|ワンタイムパスワード|パスワード|カード(?:番号|情報)|"
    r"인증 ?번호|인증 ?코드|비밀번호|카드 ?(?:번호|정보)",
    r"mã (?:OTP|xác (?:thực|nhận))|mật khẩu|(?:số|thông tin) thẻ|"
    r"kode (?:OTP|verifikasi)|kata sandi|(?:nomor|data) kartu|"
    r"verifieringskod|lösenord\w*|kortnummer|kortuppgifter",
]

# Where a number is the destination: a phone number or a UPI id written out, or "this
# number" pointed at.
WALLET = [
    # eight digits or more, not a date ("2025-03-15", "15.03.2025")
    r"(?<![\w.])(?!\d{4}-\d\d-\d\d|\d\d?[/.-]\d\d?[/.-]\d{2,4})\+?(?=(?:[ ().-]*\d){8})"
    r"\d[\d ().-]{7,}\d(?!\w|\.\d)",
    r"(?<![\w.+-])[\w.-]+@(?:upi|ybl|okaxis|oksbi|okhdfcbank|okicici|paytm|ibl|axl|apl)\b",
    r"this (?:number|phone)|este n[uú]mero|ce numéro|diese (?:Nummer|Handynummer)|"
    r"questo numero|dit nummer|ten numer|этот номер|цей номер|bu numara\w*|هذا الرقم|"
    r"इस नंबर|这个号码|この番号|이 번호|số này|nomor ini|detta nummer",
]

# Sent, as the verb at a clause's end says it ("... 98270 41136 पर भेज दो", "... adresine
# ilet", "an diese Nummer schicken"): the languages that put it last.
SENT_LAST = [
    r"भेज\w*",
    r"gönder\w*|ilet\w*|yolla\w*",
    r"送信|転送|送って|送付|送る",
    r"보내|전송|송부",
    r"schick\w*|send\w*|weiterleit\w*|übermittel\w*",
    r"发送|转发|发给|发到",
]

# Typed in: at a link, a form, a site.
ENTER = [
    r"enter(?:ing)?|typ(?:e|ing)|input(?:ting)?|fill(?:ing)? in|provid(?:e|ing)|"
    r"submit(?:ting)?|confirm(?:ing)?|verify(?:ing)?|upload(?:ing)?|register(?:ing)?",
    r"eingeben|einzugeben|gib\w* ein|angeben|bestätig\w*|hinterleg\w*",
    r"sais\w*|renseign\w*|indiqu\w*|fourni\w*|confirm\w*",
    r"introduc\w*|ingres\w*|escrib\w*|proporcion\w*|facilit\w*",
    r"inser\w*|digit\w*|immett\w*|fornisc\w*|conferm\w*|informe\w*|preench\w*",
    r"invoer\w*|invullen|vul\w* in|opgeven|wpis\w*|wprowadź\w*|poda\w*",
    r"введ\w*|ввод\w*|укаж\w*|вкаж\w*|впиш\w*|girin\w*|gir\b|girmek\w*|yaz\w*|"
    r"أدخل\w*|ادخل\w*",
    r"दर्ज|डाल|भर(?:ें|ना|ने)|输入|填写|填入|提供|入力|登録|記入|입력|등록|"
    r"nhập|điền|cung cấp|masukkan|isi|ange|fyll\w* i|registrera",
]
