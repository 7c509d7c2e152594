"""Every GET curl example in the README and docs/ answers as a reader would expect: not a 404 or
a 422 (the example itself would be wrong), never a 5xx except a 503 with Retry-After where the
example needs the network (no test reaches it). POSTs, MCP calls and the compose proxy's port are
left to their own tests."""

from __future__ import annotations

import re
import shlex
from urllib.parse import urlencode

import pytest

from tests.docs_text import ROOT, doc_files


def _examples() -> list[tuple[str, str]]:
    out = []
    for path in doc_files():
        text = path.read_text(encoding="utf-8").replace("\\\n", " ")
        for line in text.splitlines():
            if not line.startswith("curl ") or " -X " in line or " -d " in line or "/mcp" in line:
                continue
            args = shlex.split(re.sub(r"\s+#.*$", "", line))
            urls = [a for a in args if a.startswith("localhost:8000")]
            if not urls or "$" in line:
                continue
            url = urls[0].removeprefix("localhost:8000")
            encoded = [tuple(args[i + 1].split("=", 1)) for i, a in enumerate(args) if a == "--data-urlencode"]
            if encoded:
                url += ("&" if "?" in url else "?") + urlencode(encoded)
            out.append((str(path.relative_to(ROOT)), url))
    return out


EXAMPLES = _examples()


def test_the_docs_hold_examples():
    assert len(EXAMPLES) >= 25


@pytest.mark.parametrize(("doc", "url"), EXAMPLES, ids=[f"{d}:{u[:60]}" for d, u in EXAMPLES])
async def test_a_documented_get_answers(client, doc, url):
    r = await client.get(url)
    if r.status_code == 503:
        assert r.headers.get("retry-after"), (doc, url, r.text[:300])
    else:
        assert r.status_code in (200, 402), (doc, url, r.status_code, r.text[:300])


def test_the_services_table_counts_each_services_free_tools():
    from twlookup.services import load_services

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for service in load_services():
        row = re.search(rf"^\| \[{service.name}\]\(docs/services/{service.name}\.md\):.*\| (\d+) \|$", readme, re.M)
        assert row, f"{service.name} has no row in the README's services table"
        assert int(row.group(1)) == sum(1 for op in service.operations if op.tool), service.name
