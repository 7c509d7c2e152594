"""Publicly funded cancer screening: which programmes a person is eligible for now, by the
programmes' rules (from the data), and what is missing to decide the others.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from twlookup.services.health.logic.rules import Programme
from twlookup.services.health.records import Rule


@dataclass(frozen=True)
class Person:
    age: int
    sex: str
    smoker: str
    betel: str = "never"
    indigenous: bool = False
    family: frozenset[str] = frozenset()
    pack_years: float | None = None
    quit_years: int | None = None


def check_rule(rule: Rule, p: Person) -> tuple[bool | None, list[str]]:
    """True/False, or None with the parameters whose absence leaves the rule undecided."""
    c = rule.conditions
    definite = [
        ("sex" not in c or p.sex == c["sex"]),
        ("age_min" not in c or p.age >= c["age_min"]),
        ("age_max" not in c or p.age <= c["age_max"]),
        ("ages" not in c or p.age in c["ages"]),
        ("smoker" not in c or p.smoker in c["smoker"]),
        ("betel" not in c or p.betel in c["betel"]),
        ("indigenous" not in c or p.indigenous == c["indigenous"]),
        ("family" not in c or c["family"] in p.family),
    ]
    if not all(definite):
        return False, []
    missing = []
    if "pack_years_min" in c:
        if p.pack_years is None:
            missing.append("pack_years")
        elif p.pack_years < c["pack_years_min"]:
            return False, []
    if "quit_years_below" in c and p.smoker == "former":
        if p.quit_years is None:
            missing.append("quit_years")
        elif p.quit_years >= c["quit_years_below"]:
            return False, []
    return (None, missing) if missing else (True, [])


Status = Literal["eligible", "need-information", "not-eligible"]


@dataclass(frozen=True)
class Eligibility:
    programme: Programme
    status: Status
    matched: tuple[Rule, ...]
    missing: tuple[str, ...]


def screening_eligibility(programmes: tuple[Programme, ...], p: Person) -> list[Eligibility]:
    out = []
    for prog in programmes:
        matched: list[Rule] = []
        missing: list[str] = []
        for rule in prog.rules:
            ok, need = check_rule(rule, p)
            if ok:
                matched.append(rule)
            elif ok is None:
                missing.extend(n for n in need if n not in missing)
        status: Status = "eligible" if matched else ("need-information" if missing else "not-eligible")
        out.append(Eligibility(prog, status, tuple(matched), tuple(missing if not matched else ())))
    return out
