from __future__ import annotations

import pytest

from pagemem.guard import redact
from pagemem.guard.secrets import KINDS

SECRETS = [
    ("aws_access_key", "my key is AKIAIOSFODNN7EXAMPLE, keep it", "AKIAIOSFODNN7EXAMPLE"),
    (
        "aws_secret_key",
        "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    ),
    ("github_token", "push with ghp_0123456789abcdefghijklmnopqrstuvwxyzAB", "ghp_0123456789"),
    ("github_token", "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuv", "github_pat_11AB"),
    ("gitlab_token", "glpat-abcdefghij0123456789xyz", "glpat-abcdefghij0123456789xyz"),
    ("openai_key", "OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwxyz012345", "sk-proj-abcdef"),
    ("anthropic_key", "use sk-ant-api03-abcdefghijklmnopqrstuvwxyz_0123", "sk-ant-api03"),
    ("slack_token", "xoxb-1234567890-abcdefghijkl", "xoxb-1234567890"),
    ("stripe_key", "stripe: sk_live_4eC39HqLyjWDarjtT1zdp7dc", "sk_live_4eC39HqLyjWDarjtT1zdp7dc"),
    ("google_api_key", "key=AIzaSyA-abcdefghijklmnopqrstuvwxyz01234", "AIzaSyA-abcdefghij"),
    (
        "jwt",
        "session eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0."
        "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U here",
        "dozjgNryP4J3jVmNHl0w5N",
    ),
    ("bearer_token", "Authorization: Bearer 0123456789abcdefXYZ.tok", "0123456789abcdefXYZ"),
    ("url_password", "db at postgres://admin:s3cr3tpass@db.internal:5432/app", "s3cr3tpass"),
    ("password", "my password: hunter22!", "hunter22!"),
    ("password", "The wifi password is CorrectHorse9", "CorrectHorse9"),
    ("password", "PIN: 4821", "4821"),
    ("secret", "api_key = 9f8e7d6c5b4a39281706", "9f8e7d6c5b4a39281706"),
    ("credit_card", "card 4111 1111 1111 1111 exp 12/29", "4111 1111 1111 1111"),
    ("credit_card", "amex 3782-822463-10005", "3782-822463-10005"),
    ("credit_card", "mc 5555 5555 5555 4444", "5555 5555 5555 4444"),
    ("credit_card", "troy 9792 0000 0000 0003", "9792 0000 0000 0003"),
    ("credit_card", "diners 3056 930902 5904", "3056 930902 5904"),
    ("iban", "pay to DE89 3704 0044 0532 0130 00 today", "DE89 3704 0044 0532 0130 00"),
    ("iban", "GB82WEST12345698765432", "GB82WEST12345698765432"),
    (
        "private_key",
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7v\nabc\n-----END RSA PRIVATE KEY-----",
        "MIIEowIBAAKCAQEA7v",
    ),
]


@pytest.mark.parametrize(("kind", "text", "secret"), SECRETS)
def test_each_kind_is_redacted_with_a_typed_placeholder(kind: str, text: str, secret: str) -> None:
    result = redact(text)
    assert secret not in result.text
    assert f"[REDACTED:{kind}]" in result.text
    assert kind in result.kinds
    assert result.changed


def test_every_kind_is_tested() -> None:
    assert {kind for kind, _, _ in SECRETS} == set(KINDS)


BENIGN = [
    "Priya prefers aisle seats and never middle seats",
    "Order 1234 5678 9012 3456 shipped",  # fails Luhn
    "Call me at +1 206 555 0100",
    "Flight LH 1234 leaves at 09:45 from gate B12",
    "I use a password manager for everything",
    "The secret to good bread is time",
    "Tokens are counted with o200k_base",
    "ISBN 978-3-16-148410-0",
    "Pepper's chip no. 985112009915804, she's the terrier",  # passes Luhn: a microchip
    "IMEI 490154203237518 on the box",  # passes Luhn: a phone's serial, 15 digits from 49
    "IMEI 356938035643809, the old phone",  # passes Luhn: 15 digits from 35
    "loyalty 7000 0000 0000 0005",  # passes Luhn, no card network starts with 7
    "DE12 is not an IBAN",
]


@pytest.mark.parametrize("text", BENIGN)
def test_ordinary_text_is_left_alone(text: str) -> None:
    result = redact(text)
    assert result.text == text
    assert result.kinds == ()


def test_several_secrets_in_one_text_keep_the_rest() -> None:
    text = "AKIAIOSFODNN7EXAMPLE and password: hunter22 for Priya"
    result = redact(text)
    assert result.text == "[REDACTED:aws_access_key] and password: [REDACTED:password] for Priya"
    assert result.kinds == ("aws_access_key", "password")


def test_an_unterminated_private_key_is_redacted_to_the_end() -> None:
    result = redact("here -----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA")
    assert result.text == "here [REDACTED:private_key]"


def test_no_write_path_stores_a_secret(tmp_path: object) -> None:
    from pathlib import Path

    from pagemem import Context, Memory, dispatch

    path = Path(str(tmp_path)) / "m.db"
    key = "AKIAIOSFODNN7EXAMPLE"
    with Memory(path) as mem:
        me = mem.scope("acme", "priya")
        rid = me.archive.insert(f"deploy key {key}")
        assert me.archive.get(rid).text == "deploy key [REDACTED:aws_access_key]"
        assert me.archive.get(rid).metadata["redacted"] == ["aws_access_key"]
        me.blocks.set("human", f"Name: Priya. Key {key}")
        assert key not in me.blocks.get("human").value
        ctx = Context(me, max_tokens=30, system="You help.", summary_tokens=10, envelope=False)
        for _ in range(4):
            ctx.append("user", f"my password: hunter22 and {key}")
        assert key not in ctx.text()
        assert "hunter22" not in ctx.text()
        saved = dispatch(
            me, "archival_memory_insert", {"content": f"card 4111 1111 1111 1111 {key}"}
        )
        assert "secrets removed: credit_card, aws_access_key)" in saved.text
    assert key.encode() not in path.read_bytes()
    assert b"hunter22" not in path.read_bytes()
    assert b"4111 1111" not in path.read_bytes()


def test_redaction_can_be_turned_off() -> None:
    from pagemem import Memory

    with Memory(":memory:", redact_secrets=False) as mem:
        me = mem.scope("acme", "priya")
        rid = me.archive.insert("AKIAIOSFODNN7EXAMPLE")
        assert me.archive.get(rid).text == "AKIAIOSFODNN7EXAMPLE"
