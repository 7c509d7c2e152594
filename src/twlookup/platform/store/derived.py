"""What an operation derives from reference data alone, computed once per build of that data.

A `Reference` value is replaced, never changed in place, when the store is re-seeded or a feed is
imported, so an answer built from the value and a few hashable keys (a full listing, a category's
page) stays right until the value is replaced. `per_value(fn)` keeps `fn(value, *keys)` for the
latest value (by identity) and forgets everything when a new value arrives. Only for answers that
depend on nothing else: not on today's date, the clock, the caller or a live store read.
The kept answers are shared between requests; nothing may change them after they are built.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from typing import Concatenate, Generic, TypeVar

V = TypeVar("V")
R = TypeVar("R")
MAX_KEYS = 64  # kept answers per value; past it the oldest is dropped


class per_value(Generic[V, R]):
    def __init__(self, fn: Callable[Concatenate[V, ...], R]) -> None:
        functools.update_wrapper(self, fn)
        self.fn = fn
        self.kept: tuple[V | None, dict[tuple[Hashable, ...], R]] = (None, {})

    def __call__(self, value: V, *keys: Hashable) -> R:
        kept_for, answers = self.kept
        if kept_for is not value:
            answers = {}
            self.kept = (value, answers)  # one assignment: a concurrent reader sees the old or the new pair
        if keys in answers:
            return answers[keys]
        answer = self.fn(value, *keys)
        if len(answers) >= MAX_KEYS:
            answers.pop(next(iter(answers)), None)
        answers[keys] = answer
        return answer
