"""The check digit of a Taiwan business ID (統一編號, UBN).

Rule (財政部財政資訊中心, 營利事業統一編號檢查碼邏輯修正說明; in force for numbers issued from
2023-04): multiply the 8 digits by the weights 1,2,1,2,1,2,4,1, add the two digits of each product,
and sum them as S. The number is valid when S is divisible by 5; when the 7th digit is 7 its product
28 gives 2 + 8 = 10, which may count as 1 or 0, so S + 1 divisible by 5 is also valid. The old rule
asked for divisibility by 10; every number valid under it stays valid under the new one.
"""

from __future__ import annotations

from dataclasses import dataclass

WEIGHTS = (1, 2, 1, 2, 1, 2, 4, 1)


@dataclass(frozen=True)
class UbnCheck:
    ban: str
    valid: bool
    valid_old_rule: bool
    checksum: int
    seventh_is_7: bool


def digit_sum(n: int) -> int:
    return n // 10 + n % 10


def check(ban: str) -> UbnCheck:
    if len(ban) != 8 or not ban.isdigit():
        raise ValueError("a business ID is 8 digits")
    s = sum(digit_sum(int(d) * w) for d, w in zip(ban, WEIGHTS, strict=True))
    seven = ban[6] == "7"
    # For a 7th digit of 7, digit_sum(28) = 10 is used above; the rule lets it count as 1 or 0
    # (the digits of 10 summed again, or its units digit): S − 9 or S − 10.
    if seven:
        s_one, s_zero = s - 9, s - 10
        valid = s_one % 5 == 0 or s_zero % 5 == 0
        old = s_one % 10 == 0 or s_zero % 10 == 0
        return UbnCheck(ban, valid, old, s_one, True)
    return UbnCheck(ban, s % 5 == 0, s % 10 == 0, s, False)


def note(c: UbnCheck) -> str:
    """The check-digit verdict in words."""
    if c.valid and c.valid_old_rule:
        return "檢查碼正確（新舊規則皆符合）。"
    if c.valid:
        return "檢查碼依2023年起的新規則（可被5整除）正確；舊規則（可被10整除）會誤判為錯誤。"
    return "檢查碼不符：請再核對號碼。"
