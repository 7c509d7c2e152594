"""The robots matcher against RFC 9309's own published cases (https://www.rfc-editor.org/rfc/rfc9309.html,
checked 2026-11-26) and Google's documented reading of robots.txt (the 500 KiB cut, the product
token of a user-agent line, as google/robotstxt's ExtractUserAgent reads it)."""

from __future__ import annotations

import pytest

from twlookup.services.seo.logic.robots import MAX_BYTES, crawler_token, decide, encode, parse, tokens_in

# RFC 9309 section 2.2.2, the table of paths and how they are matched: (rule, path), each matching.
SECTION_2_2_2 = [
    ("/foo/bar?baz=quz", "/foo/bar?baz=quz"),
    ("/foo/bar/ツ", "/foo/bar/%E3%83%84"),  # UTF-8 in the rule, encoded in the URL
    ("/foo/bar/%E3%83%84", "/foo/bar/%E3%83%84"),
    ("/foo/bar/%E3%83%84", "/foo/bar/ツ"),  # the reverse: encoded rule, plain path
    ("/foo/bar/%e3%83%84", "/foo/bar/%E3%83%84"),  # escapes compare case-insensitively
    ("/foo/bar/%62%61%7A", "/foo/bar/baz"),  # an escaped unreserved character is decoded
    ("/foo/bar/baz", "/foo/bar/%62%61%7A"),  # and the reverse
]


@pytest.mark.parametrize(("rule", "path"), SECTION_2_2_2)
def test_section_2_2_2_encoded_and_plain_forms_match(rule: str, path: str) -> None:
    d = decide(parse(f"User-agent: *\nDisallow: {rule}\n"), "FooBot", path)
    assert d.allowed is False and d.rule is not None and d.rule.pattern == rule


def test_reserved_escapes_stay_distinct() -> None:
    # %2F is an escaped reserved character: it is not the path separator (RFC 3986, RFC 9309 2.2.2).
    parsed = parse("User-agent: *\nDisallow: /a%2Fb\n")
    assert decide(parsed, "FooBot", "/a%2fb").allowed is False
    assert decide(parsed, "FooBot", "/a/b").allowed is True


# RFC 9309 section 2.2.3: "%2A" and "%24" in a pattern are the literal characters, not wildcards.
@pytest.mark.parametrize(
    ("rule", "path", "allowed"),
    [
        ("/path/file-with-a-%2A.html", "/path/file-with-a-*.html", False),
        ("/path/file-with-a-%2A.html", "/path/file-with-a-%2A.html", False),
        ("/path/file-with-a-%2A.html", "/path/file-with-a-x.html", True),  # not a wildcard
        ("/path/foo-%24", "/path/foo-$", False),
        ("/path/foo-%24", "/path/foo-%24", False),
        ("/path/foo-%24", "/path/foo-", True),  # not an end anchor
        ("/path/foo-%24", "/path/foo-$/more", False),  # a literal, so a prefix like any other
        ("/path/file-with-a-*.html", "/path/file-with-a-x.html", False),  # a plain * is the wildcard
        ("/path/foo-$", "/path/foo-/more", True),  # a final plain $ anchors
        ("/path/foo$bar", "/path/foo$bar", False),  # a $ before the end is a literal
    ],
)
def test_section_2_2_3_escaped_special_characters_are_literals(rule: str, path: str, allowed: bool) -> None:
    assert decide(parse(f"User-agent: *\nDisallow: {rule}\n"), "FooBot", path).allowed is allowed


def test_the_longest_match_counts_octets_in_the_compared_form() -> None:
    # /foo/bar/%62%61%7A is /foo/bar/baz (12 octets) once compared; /foo/bar/ba* is 12 too: allow wins the tie.
    robots = "User-agent: *\nDisallow: /foo/bar/%62%61%7A\nAllow: /foo/bar/ba*\n"
    assert decide(parse(robots), "FooBot", "/foo/bar/baz").allowed is True
    assert encode("/foo/bar/%62%61%7A", pattern=True) == "/foo/bar/baz"


@pytest.mark.parametrize("path", ["/robots.txt", "http://foo.bar/robots.txt", "/robots.txt?x=1"])
def test_robots_txt_itself_is_implicitly_allowed(path: str) -> None:
    # RFC 9309 2.2.2: "The /robots.txt URI is implicitly allowed."
    for robots in ("User-agent: *\nDisallow: /\n", "User-agent: FooBot\nDisallow: /robots.txt\n"):
        d = decide(parse(robots), "FooBot", path)
        assert d.allowed is True and d.rule is None and "2.2.2" in d.reason


def test_only_robots_txt_is_implicitly_allowed() -> None:
    parsed = parse("User-agent: *\nDisallow: /\n")
    assert decide(parsed, "FooBot", "/robots.txt.bak").allowed is False
    assert decide(parsed, "FooBot", "/dir/robots.txt").allowed is False


def test_user_agent_line_with_a_version_is_its_product_token() -> None:
    robots = "User-agent: Googlebot/2.1\nDisallow: /private/\n\nUser-agent: *\nDisallow: /\n"
    parsed = parse(robots)
    assert parsed.groups[0].agents == ["Googlebot"]
    assert decide(parsed, "Googlebot", "/public").allowed is True
    assert decide(parsed, "googlebot", "/private/x").allowed is False
    assert decide(parsed, "Bingbot", "/public").allowed is False
    assert [(f.line, f.severity) for f in parsed.findings] == [(1, "warning")]
    assert "'Googlebot'" in parsed.findings[0].message


def test_a_token_with_digits_keeps_them_and_is_reported() -> None:
    # A documented difference: Google's parser would read AI2Bot as AI (RFC 9309 tokens have no digits).
    parsed = parse("User-agent: AI2Bot\nDisallow: /\n")
    assert parsed.groups[0].agents == ["AI2Bot"]
    assert decide(parsed, "AI2Bot", "/x").allowed is False and decide(parsed, "AI", "/x").allowed is True
    assert [f.severity for f in parsed.findings] == ["warning"] and "'AI'" in parsed.findings[0].message


def test_star_followed_by_text_is_the_global_group() -> None:
    parsed = parse("User-agent: * # everyone\nDisallow: /x\nUser-agent: *bot\nDisallow: /y\n")
    assert decide(parsed, "FooBot", "/x").allowed is False


def test_user_agent_line_without_a_token_opens_a_group_no_crawler_matches() -> None:
    parsed = parse("User-agent: FooBot\nDisallow: /a\nUser-agent: /weird\nDisallow: /b\n")
    assert decide(parsed, "FooBot", "/b").allowed is True  # /b belongs to the tokenless group, not FooBot's
    assert [f.severity for f in parsed.findings if f.line == 3] == ["error"]


def _padded(before: str, after: str, size: int) -> str:
    pad = size - len(before.encode()) - 1
    return before + "#" + "x" * (pad - 1) + "\n" + after


def test_a_file_over_500_kib_is_cut_not_refused() -> None:
    # Google reads the first 500 KiB (512,000 bytes) and ignores the rest.
    head = "User-agent: *\nDisallow: /a\n"
    big = _padded(head, "Disallow: /b\n", MAX_BYTES + 10)
    parsed = parse(big)
    assert decide(parsed, "FooBot", "/a").allowed is False
    assert decide(parsed, "FooBot", "/b").allowed is True  # past the cut
    cut = [f for f in parsed.findings if "500 KiB" in f.message]
    assert len(cut) == 1 and cut[0].severity == "warning"


def test_a_file_of_exactly_500_kib_is_read_whole() -> None:
    head = "User-agent: *\nDisallow: /a\n"
    tail = "Disallow: /b\n"
    exact = _padded(head, tail, MAX_BYTES - len(tail))
    assert len(exact.encode()) == MAX_BYTES
    parsed = parse(exact)
    assert decide(parsed, "FooBot", "/b").allowed is False
    assert not [f for f in parsed.findings if "500 KiB" in f.message]


@pytest.mark.parametrize("line", ["Foo bar baz", "Noindex-please: /x", "Clean-param: ref /a", "\ufeffAllow: /x"])
def test_unknown_lines_are_warnings_not_errors(line: str) -> None:
    parsed = parse(f"User-agent: *\nDisallow: /private/\n{line}\n")
    assert [f.severity for f in parsed.findings] == ["warning"]
    assert decide(parsed, "FooBot", "/private/a").allowed is False  # the file still works


@pytest.mark.parametrize(
    ("value", "token"),
    [
        ("Googlebot", "Googlebot"),
        ("Googlebot/2.1", "Googlebot"),
        (" ChatGPT-User/1.0 ", "ChatGPT-User"),
        ("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", None),
        ("Googlebot Image", None),
        ("*", None),
        ("/2.1", None),
    ],
)
def test_crawler_token_of_a_given_name(value: str, token: str | None) -> None:
    assert crawler_token(value) == token


def test_tokens_in_a_user_agent_header() -> None:
    header = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot"
    assert tokens_in(header) == ["Mozilla", "AppleWebKit", "ChatGPT-User"]
