"""The README's curl examples for sports, movie and games answer as the README says."""

import re
import shlex
from pathlib import Path
from urllib.parse import urlsplit

README = Path(__file__).resolve().parents[3] / "README.md"


def _examples() -> list[tuple[str, dict[str, str]]]:
    """(URL, the --data-urlencode parameters) of each curl line of the section."""
    text = README.read_text(encoding="utf-8")
    section = text[text.index("### sports, movie and games") : text.index("## Calling the three kinds of endpoint")]
    out = []
    for line in section.splitlines():
        if line.startswith("curl "):
            args = shlex.split(line.split("#")[0])
            url = next(a for a in args if a.startswith("localhost:"))
            encoded = dict(args[i + 1].split("=", 1) for i, a in enumerate(args) if a == "--data-urlencode")
            out.append((url, encoded))
    return out


async def test_readme_curl_examples(client):
    examples = _examples()
    assert len(examples) == 5
    for url, encoded in examples:
        parts = urlsplit("http://" + url)
        params = parts.query or encoded  # query as written in the README
        r = await client.get(parts.path, params=params)
        if "/api/lookup" in parts.path:
            assert r.status_code == 503 and r.headers["retry-after"]  # no network in tests, as the README says
        else:
            assert r.status_code == 200, (url, r.text)
            assert re.search(r'"as_of":"\d{4}-\d{2}-\d{2}"', r.text)
