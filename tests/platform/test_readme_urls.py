"""Every curl example in the README can be pasted as it is: a real server refuses a request line
with raw non-ASCII bytes (uvicorn answers "Invalid HTTP request"), so text that is not ASCII goes
through `--data-urlencode`, not into the URL."""

import re
import shlex

from tests.docs_text import all_docs

README = all_docs()  # the README and docs/, where the examples now live


def test_curl_urls_in_the_readme_are_ascii():
    lines = [line for line in README.replace("\\\n", " ").splitlines() if line.startswith("curl ")]
    assert len(lines) > 20
    bad = []
    for line in lines:
        args = shlex.split(re.sub(r"\s+#.*$", "", line))
        urls = [a for a in args if "localhost" in a]
        if any(not url.isascii() for url in urls):
            bad.append(line)
    assert not bad, bad
