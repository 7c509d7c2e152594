"""How-tos must not recommend a model its provider is retiring: the models a how-to names are looked
up in the models service's retirement records (the shared `domain.model_lifecycle` table) and
their state computed for today by the same rule the models service answers with; a retiring
model in the code is swapped for the provider's named replacement (followed while that one is also
retiring), and the answer says what was swapped and why, with the record's source."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from twlookup.domain.model_lifecycle import Catalog, Model, State, status
from twlookup.services.glossary.records import CodeBlock, HowTo


@dataclass(frozen=True)
class ModelAdvice:
    written: str  # the name as the how-to writes it
    model: Model  # the retirement record it resolves to
    state: State  # model_lifecycle.status on the day asked
    used_instead: str | None  # what the answer's code uses instead (None: keep it, or no replacement named)


def successor(model: Model, catalog: Catalog, today: date) -> str | None:
    """The provider's named replacement, followed while it is itself retiring; a replacement with no
    retirement record has no retirement announced. None when the chain ends without one."""
    name, seen = model.replacement, {model.id}
    while name:
        hit = catalog.resolve(name)
        if hit is None:
            return name
        current = hit[0]
        if current.id in seen:
            return None
        seen.add(current.id)
        if status(current, today) == "active":
            return current.id
        name = current.replacement
    return None


def advise(howto: HowTo, catalog: Catalog, today: date) -> list[ModelAdvice]:
    text = "\n".join([howto.title, howto.summary, *howto.steps, *(c.code for c in howto.code)])
    out = []
    for model, written, _ in catalog.find_in_text(text):
        state = status(model, today)
        instead = successor(model, catalog, today) if state != "active" else None
        out.append(ModelAdvice(written, model, state, instead))
    return out


def rewrite(code: list[CodeBlock], advice: list[ModelAdvice]) -> list[CodeBlock]:
    """The code with every retiring model the advice names swapped for its successor (whole names only)."""
    out = []
    for block in code:
        text = block.code
        for a in advice:
            if a.used_instead:
                text = re.sub(rf"(?<![\w.-]){re.escape(a.written)}(?![\w.-])", a.used_instead, text)
        out.append(block.model_copy(update={"code": text}))
    return out
