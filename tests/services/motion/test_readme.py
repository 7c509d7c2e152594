"""The example requests of the motion and creator docs (docs/services/) answer as documented."""

import re

import pytest

from tests.docs_text import ROOT


def examples(service):
    section = (ROOT / "docs" / "services" / f"{service}.md").read_text(encoding="utf-8")
    out = []
    for line in section.splitlines():
        m = re.match(rf"\| GET \| `(/{service}/api/[^`]+)`", line)
        if m and "/api/pro/" not in m.group(1) and not re.search(r"=(&|$)", m.group(1)):
            out.append(m.group(1))
    return out


@pytest.mark.parametrize("path", examples("motion") + examples("creator"))
async def test_readme_example_answers(client, path):
    r = await client.get(path)
    assert r.status_code == 200, (path, r.text)


def test_the_readme_has_examples_for_both():
    assert len(examples("motion")) >= 8 and len(examples("creator")) >= 5
