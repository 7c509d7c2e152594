"""The glossary's paid routes: 402 without payment; the operations' answers and the 50-term limit."""

import pytest

from twlookup.services.glossary import operations
from twlookup.services.glossary.schemas import BatchBody

pytestmark = pytest.mark.asyncio


async def test_paid_routes_ask_for_payment(client):
    r = await client.post("/glossary/api/pro/explain-batch", json={"terms": ["LLM"]})
    assert r.status_code == 402
    r = await client.get("/glossary/api/pro/export")
    assert r.status_code == 402


def _op(name):
    return next(op for op in operations.SERVICE.operations if op.name == name)


async def test_explain_batch_and_limit(client):
    op = _op("explain_batch")
    assert op.price == "$0.02"
    result = await op.call({"terms": ["LLM", "大语言模型", "zzqqxx"]})
    assert result.count == 3 and result.found == 2
    assert result.results[1].term.id == "large-language-model"
    assert result.results[2].found is False
    from twlookup.platform.errors import Problem

    with pytest.raises(Problem) as exc:
        await op.call({"terms": ["x"] * 51})
    assert exc.value.status == 422 and exc.value.errors[0]["parameter"] == "terms"
    with pytest.raises(Problem):
        await op.call({"terms": []})
    assert BatchBody(terms=["a"] * 50)


async def test_export_has_everything_with_sources(client):
    op = _op("export")
    assert op.price == "$0.05"
    result = await op.call({})
    assert len(result.terms) >= 150 and len(result.comparisons) >= 30 and len(result.howtos) >= 20
    assert "CC BY 4.0" in result.licence
    urls = {s.url for s in result.sources}
    assert all(t.source.url in urls for t in result.terms)
