"""The README's curl examples for sports, movie and games answer as the README says."""

import re
import shlex
from pathlib import Path
from urllib.parse import urlsplit

README = Path(__file__).resolve().parents[3] / "README.md"


def _examples() -> list[str]:
    text = README.read_text(encoding="utf-8")
    section = text[text.index("### sports, movie and games") : text.index("## Calling the three kinds of endpoint")]
    return [shlex.split(line.split("#")[0])[1] for line in section.splitlines() if line.startswith("curl ")]


async def test_readme_curl_examples(client):
    urls = _examples()
    assert len(urls) == 5
    for url in urls:
        parts = urlsplit("http://" + url)
        r = await client.get(parts.path, params=parts.query)  # query as written in the README
        if "/api/lookup" in parts.path:
            assert r.status_code == 503 and r.headers["retry-after"]  # no network in tests, as the README says
        else:
            assert r.status_code == 200, (url, r.text)
            assert re.search(r'"as_of":"\d{4}-\d{2}-\d{2}"', r.text)
