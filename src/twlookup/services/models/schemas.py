"""Parameters and results of the models service's operations."""

from __future__ import annotations

from datetime import date

from pydantic import Field, model_validator

from twlookup.domain.model_lifecycle import Kind, Match, Model, Provider, State
from twlookup.platform.operations import Params
from twlookup.platform.records import RecordAnswer
from twlookup.platform.schemas import LazyModel

FREE_CHECK_LIMIT = 10
PAID_AUDIT_LIMIT = 200


class ModelOut(RecordAnswer, record=Model):
    """A model record as answers give it: its facts, its status today and its source."""

    status: State = Field(description="Derived from today's date in Taiwan and the announced dates")
    days_until_retirement: int | None = Field(
        ge=0, description="Whole days to the retirement date; null once it has passed (see days_since_retirement)"
    )
    days_since_retirement: int | None = Field(
        ge=0, description="Whole days since the retirement date; null until it has passed"
    )


class ListQuery(Params):
    provider: Provider | None = Field(None, description="Only models of this provider")
    status: State | None = Field(None, description="Only models in this status")
    kind: Kind | None = Field(None, description="Only models of this kind")


class ModelList(LazyModel):
    as_of: date
    count: int
    counts_by_status: dict[str, int]
    models: list[ModelOut]


class ModelQuery(Params):
    id: str = Field(min_length=1, max_length=200, description="Model id, alias or dated snapshot, e.g. gpt-4-0613")


class ModelDetail(LazyModel):
    as_of: date
    query: str
    matched_as: Match
    model: ModelOut
    action: str


class UpcomingQuery(Params):
    days: int = Field(90, ge=1, le=3650, description="Look this many days ahead (1 to 3650; default 90)")


class Upcoming(LazyModel):
    as_of: date
    days: int
    until: date
    count: int
    models: list[ModelOut]


class ReplacementQuery(Params):
    q: str = Field(min_length=1, max_length=200, description="Model id or alias to find the replacement for")


class Replacement(LazyModel):
    as_of: date
    model: ModelOut
    replacement: ModelOut | None = Field(description="The provider's direct recommendation")
    chain: list[ModelOut] = Field(description="Replacements followed until one that is not retiring")
    recommended: ModelOut | None = Field(description="Last link of the chain: what to migrate to today")
    action: str


class CalendarQuery(Params):
    month: str = Field(pattern=r"^[1-9]\d{3}-(0[1-9]|1[0-2])$", description="Month as YYYY-MM (year 1000 to 9999)")


class CalendarDay(LazyModel):
    date: date
    models: list[ModelOut]


class Calendar(LazyModel):
    as_of: date
    month: str
    count: int
    days: list[CalendarDay]


class CheckBody(Params):
    text: str = Field(min_length=1, max_length=200_000, description="Code or configuration to scan for model ids")


class Finding(LazyModel):
    written_as: str = Field(description="The text as it appears in the input")
    matched_as: Match
    model: ModelOut
    action: str


class CheckResult(LazyModel):
    as_of: date
    found: int = Field(description="Distinct models named in the text")
    reported: int
    limit: int
    truncated: bool = Field(description="True when more models were found than this call reports")
    counts_by_status: dict[str, int]
    findings: list[Finding]
    unknown: list[str] = Field(default_factory=list, description="Ids asked for that match no known model")
    hint: str | None = None


class AuditBody(Params):
    text: str | None = Field(None, max_length=2_000_000, description="Code or configuration to scan")
    ids: list[str] | None = Field(None, max_length=PAID_AUDIT_LIMIT, description="Model ids to check (at most 200)")

    @model_validator(mode="after")
    def _one_input(self) -> AuditBody:
        if not self.text and not self.ids:
            raise ValueError("give text (code to scan) or ids (a list of model ids)")
        return self


class Export(LazyModel):
    as_of: date
    count: int
    providers: list[str]
    models: list[ModelOut]
