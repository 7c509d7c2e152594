"""robots.txt per RFC 9309: parsing with line-numbered format findings, matching that says which
group and which rule decided, each crawler's verdict when the file is unreachable or unavailable
(`robots_verdicts`), and a file generated for a mode (`generate_robots`).

Matching (RFC 9309 section 2.2): the groups whose product tokens equal the crawler's token
(case-insensitive) are merged; if none, the `*` groups; if none, everything is allowed. Among the
rules of the chosen groups that match the path, the longest pattern (in octets, after
percent-encoding) wins; on a tie `allow` wins. `*` matches any run of characters, `$` at the end
anchors the pattern; a rule with an empty pattern matches nothing. `/robots.txt` itself is always
allowed (RFC 9309 2.2.2).

Percent-encoding (RFC 9309 2.2.2 and its table, and 2.2.3): rule and path are both brought to one
form before comparison: octets outside printable ASCII are percent-encoded, escapes get upper-case
hex digits, and an escape of an unreserved character (RFC 3986: letters, digits, `-._~`) is
decoded, so the rule `/foo/bar/%62%61%7A` matches the path `/foo/bar/baz` and the reverse. An
escaped `*` or `$` (`%2A`, `%24`) in a rule is that literal character, not a wildcard or anchor,
and matches a literal `*` or `$` in the path as well as its escape.

User-agent lines are read as Google's parser reads them: the product token is the leading run of
letters, `_` and `-` (`Googlebot/2.1` is the group for `Googlebot`), and `*` followed by a space
is the global group. Only the first 500 KiB of a file are read, as Google does (RFC 9309 2.5 asks
crawlers to read at least that much); the rest is ignored and reported.

Google's parser (google/robotstxt) is the oracle for the tests; where this module differs on
purpose it is listed in DIFFERENCES_FROM_GOOGLE.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal
from urllib.parse import urlsplit

RFC9309 = "https://www.rfc-editor.org/rfc/rfc9309.html"  # the protocol this module implements

DIFFERENCES_FROM_GOOGLE = [
    "The path to test is percent-encoded here before matching, as RFC 9309 section 2.2.2 requires "
    "(Google's library leaves that to its caller): /foo/bar/ツ matches the rule /foo/bar/%E3%83%84.",
    "An escaped unreserved character is decoded on both sides before matching, as the table in RFC "
    "9309 section 2.2.2 shows (Google's library compares escapes as written): the rule "
    "/foo/bar/%62%61%7A matches the path /foo/bar/baz.",
    "Google treats an allow rule ending in /index.html (or .htm) as also allowing the directory "
    "itself (/dir/); that is a Google-only extension and is not applied here.",
    "Google ignores the part of a line past 16,664 bytes; lines are read whole here.",
    "Digits are kept in the product token of a user-agent line (User-agent: AI2Bot is the group for AI2Bot, "
    "as the crawler's name says); Google's parser stops at the first digit and reads it as AI. RFC 9309 "
    "tokens have no digits, so such a line is also reported as a warning.",
]

MAX_BYTES = 512_000  # 500 KiB: Google ignores what follows; RFC 9309 2.5 asks crawlers to read at least this
GOOGLE_TYPOS = {
    "user-agent": ("useragent", "user agent"),
    "disallow": ("dissallow", "dissalow", "disalow", "diasllow", "disallaw"),
    "sitemap": ("site-map",),
}
KNOWN_OTHER = {"crawl-delay", "host", "clean-param", "noindex", "request-rate", "visit-time", "content-signal"}
TOKEN = re.compile(r"^[A-Za-z_-]+$")
GroupKind = Literal["specific", "global", "none"]  # the crawler's own group, the * group, or none
LEADING_TOKEN = re.compile(r"^[A-Za-z0-9_-]*")
LEADING_TOKEN_GOOGLE = re.compile(r"^[A-Za-z_-]*")
UNRESERVED = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
ROBOTS_PATH = "/robots.txt"


@dataclass(frozen=True)
class Rule:
    kind: str  # allow | disallow
    pattern: str  # as written
    encoded: str  # percent-encoded form used for matching
    line: int


@dataclass
class Group:
    agents: list[str]  # product tokens as crawlers read them (`Googlebot/2.1` is `Googlebot`)
    lines: list[int]
    rules: list[Rule] = field(default_factory=list)


@dataclass(frozen=True)
class Finding:
    line: int
    severity: str  # error | warning
    message: str


@dataclass
class Parsed:
    groups: list[Group]
    sitemaps: list[str]
    findings: list[Finding]

    @cached_property
    def _by_agent(self) -> dict[str, list[Group]]:
        """The groups by the agents they name (lower-case), in file order, each once: built on the
        first decision, since deciding for every crawler of the list (164) scanned every group's
        agents each time."""
        index: dict[str, list[Group]] = {}
        for group in self.groups:
            for name in dict.fromkeys(a.lower() for a in group.agents):
                index.setdefault(name, []).append(group)
        return index

    def groups_for(self, agent: str) -> list[Group]:
        """The groups that name `agent` (lower-case), in file order."""
        return self._by_agent.get(agent, [])


@dataclass(frozen=True)
class Decision:
    allowed: bool
    path: str  # the path as matched (percent-encoded)
    group: Group | None  # the group (first of the merged ones) that applied, None when no group did
    group_kind: GroupKind
    rule: Rule | None  # the deciding rule; None when no rule matched
    reason: str


def encode(text: str, pattern: bool = False) -> str:
    """The form rules and paths are compared in (RFC 9309 2.2.2): octets outside printable ASCII
    percent-encoded, escapes upper-cased, escapes of unreserved characters decoded. In a path a
    literal `*` or `$` is escaped (`%2A`, `%24`); in a pattern they stay the wildcard and the final
    anchor, and a `$` before the end is a literal `%24`."""
    out: list[str] = []
    raw = text.encode("utf-8")
    last = len(raw) - 1
    i = 0
    while i < len(raw):
        byte = raw[i]
        if byte == 0x25 and re.fullmatch(rb"[0-9A-Fa-f]{2}", raw[i + 1 : i + 3]):
            octet = int(raw[i + 1 : i + 3], 16)
            out.append(chr(octet) if octet in UNRESERVED else "%" + raw[i + 1 : i + 3].decode().upper())
            i += 3
            continue
        if byte == 0x2A:  # *
            out.append("*" if pattern else "%2A")
        elif byte == 0x24:  # $
            out.append("$" if pattern and i == last else "%24")
        else:
            out.append(chr(byte) if 0x21 <= byte <= 0x7E else f"%{byte:02X}")
        i += 1
    return "".join(out)


# Spelled with ASCII classes, not \s and \S: JavaScript's, Python's and the Rust regex engine's
# whitespace differ (U+001C-U+001F, U+FEFF), so a client checking the schema's pattern would
# accept values the server refuses.
CRAWLER_TOKEN_PATTERN = r"^[ \t]*[A-Za-z0-9_-]+(/[!-~]*)?[ \t]*$"  # the user_agent parameter, as its schema states it
CRAWLER_TOKEN = re.compile(r"^([A-Za-z0-9_-]+)(?:/[!-~]*)?$")
BROWSER_TOKENS = {"mozilla", "applewebkit", "chrome", "safari", "gecko", "firefox", "version", "mobile", "edg", "opr"}


def crawler_token(value: str) -> str | None:
    """The product token of a crawler's name as a user gives it: `Googlebot` or `Googlebot/2.1`
    (the token before '/', digits kept); None for anything else, such as a whole User-Agent header."""
    found = CRAWLER_TOKEN.match(value.strip())
    return found.group(1) if found else None


def tokens_in(header: str) -> list[str]:
    """The product tokens of a User-Agent header ('Name/version' products), in order."""
    return list(dict.fromkeys(re.findall(r"(?:^|[\s;(,])([A-Za-z0-9_-]+)/", header)))


def not_a_token(value: str) -> str:
    """Why a user_agent value is refused, naming the crawler tokens a User-Agent header carries."""
    carried = [t for t in tokens_in(value) if t.lower() not in BROWSER_TOKENS]
    hint = (
        f"the crawler token(s) in it: {', '.join(carried)}"
        if carried
        else "it carries no crawler 'Name/version' product"
    )
    return (
        f"{value[:120]!r} is not a product token; robots.txt groups are matched by the crawler's product token "
        f"alone (RFC 9309 2.2.1), so give that ({hint}); Googlebot/2.1 is read as Googlebot"
    )


def product_token(value: str) -> str:
    """The product token a user-agent value names, read as Google's parser reads it: the leading
    run of letters, '_' and '-' (`Googlebot/2.1` names `Googlebot`), digits kept (see
    DIFFERENCES_FROM_GOOGLE); `*` for the global group."""
    value = value.strip()
    if value == "*" or (value.startswith("*") and value[1:2].isspace()):
        return "*"
    return LEADING_TOKEN.match(value).group()  # type: ignore[union-attr]  # the pattern matches the empty string: never None


def path_of(target: str) -> str:
    """The path, parameters and query of a URL or path (no fragment), starting with '/'."""
    target = target.strip()
    if "://" in target or target.startswith("//"):
        parts = urlsplit(target if "://" in target else "http:" + target)
        path = parts.path or "/"
        if parts.query:
            path += "?" + parts.query
        return path
    target = target.split("#", 1)[0]
    if not target.startswith("/"):
        target = "/" + target
    return target


def _key(raw: str) -> tuple[str | None, bool]:
    """The directive a key names and whether it was a tolerated typo."""
    key = raw.strip().lower()
    if key in ("user-agent", "allow", "disallow", "sitemap"):
        return key, False
    for name, typos in GOOGLE_TYPOS.items():
        if any(key.startswith(t) for t in typos):
            return name, True
    return None, False


def parse(text: str) -> Parsed:
    text = text.lstrip("\ufeff")
    for partial in ("\u00ef\u00bb\u00bf", "\u00ef\u00bb", "\u00ef"):  # a BOM read as Latin-1
        if text.startswith(partial):
            text = text[len(partial) :]
            break
    groups: list[Group] = []
    sitemaps: list[str] = []
    findings: list[Finding] = []
    current: Group | None = None
    last_was_agent = False
    raw = text.encode("utf-8")
    cut_at_line: int | None = None
    if len(raw) > MAX_BYTES:
        # Google reads the first 500 KiB and ignores the rest (a line cut in the middle is read as cut).
        text = raw[:MAX_BYTES].decode("utf-8", errors="ignore")
        cut_at_line = len(re.split(r"\r\n|\r|\n", text))
        findings.append(
            Finding(
                cut_at_line,
                "warning",
                f"The file is {len(raw):,} bytes; only the first {MAX_BYTES:,} (500 KiB) are read, as Google does: "
                f"everything after line {cut_at_line} (which is cut) is ignored.",
            )
        )
    for number, line in enumerate(re.split(r"\r\n|\r|\n", text), start=1):
        content = line.split("#", 1)[0].strip()
        if not content:
            continue
        if ":" in content:
            raw_key, value = content.split(":", 1)
        else:
            pieces = content.split(None, 1)
            if len(pieces) != 2 or _key(pieces[0])[0] is None:
                findings.append(
                    Finding(number, "warning", f"Not a 'name: value' line: {content[:80]!r}; crawlers ignore it.")
                )
                continue
            raw_key, value = pieces
            findings.append(
                Finding(number, "warning", f"Missing ':' after {raw_key!r} (Google accepts it; others may not).")
            )
        value = value.strip()
        key, typo = _key(raw_key)
        if typo:
            findings.append(
                Finding(
                    number,
                    "warning",
                    f"{raw_key.strip()!r} is a misspelling of {key!r} (Google accepts it; others may not).",
                )
            )
        if key is None:
            name = raw_key.strip().lower()
            if name in KNOWN_OTHER:
                findings.append(
                    Finding(number, "warning", f"{raw_key.strip()!r} is not part of RFC 9309; Google ignores it.")
                )
            else:
                findings.append(
                    Finding(number, "warning", f"Unknown directive {raw_key.strip()!r}; crawlers ignore the line.")
                )
            continue
        if key == "sitemap":
            if not re.match(r"^https?://", value, re.I):
                findings.append(Finding(number, "error", "Sitemap must be an absolute http(s) URL."))
            else:
                sitemaps.append(value)
            continue
        if key == "user-agent":
            token = product_token(value)
            if not token:  # Google's parser still opens a group here, one that no crawler matches
                what = "Empty user-agent" if not value else f"User-agent {value!r} starts with no product token"
                findings.append(Finding(number, "error", f"{what}: it matches no crawler, nor do the rules under it."))
                token = value
            elif token != "*" and token != value:
                findings.append(
                    Finding(
                        number,
                        "warning",
                        f"User-agent {value!r} is not a bare product token (letters, '_' and '-' only); "
                        f"crawlers read it as {token!r}.",
                    )
                )
            elif token != "*" and not TOKEN.match(token):
                google = LEADING_TOKEN_GOOGLE.match(token).group()  # type: ignore[union-attr]  # matches "" at least
                findings.append(
                    Finding(
                        number,
                        "warning",
                        f"User-agent {value!r} has a digit; RFC 9309 product tokens are letters, '_' and '-' "
                        f"only, and Google's parser reads it as {google!r}.",
                    )
                )
            if current is not None and last_was_agent:
                current.agents.append(token)
                current.lines.append(number)
            else:
                current = Group([token], [number])
                groups.append(current)
            last_was_agent = True
            continue
        # allow / disallow
        if current is None:
            findings.append(
                Finding(number, "error", f"{key.capitalize()} before any User-agent line; it applies to no crawler.")
            )
            continue
        last_was_agent = False
        if value and not value.startswith(("/", "*")):
            findings.append(
                Finding(
                    number, "warning", f"Pattern {value!r} should start with '/' or '*'; it matches no path as written."
                )
            )
        if "$" in value[:-1]:
            findings.append(Finding(number, "warning", f"'$' is special only at the end of a pattern: {value!r}."))
        current.rules.append(Rule(key, value, encode(value, pattern=True), number))
    for group in groups:
        if not group.rules:
            findings.append(
                Finding(
                    group.lines[0], "warning", f"Group for {', '.join(group.agents)} has no allow or disallow rule."
                )
            )
    findings.sort(key=lambda f: f.line)
    return Parsed(groups, sitemaps, findings)


def match_length(pattern: str, path: str) -> int:
    """Length of pattern when it matches path from the start, else -1 (RFC 9309 '*' and '$')."""
    if not pattern:
        return -1
    anchored = pattern.endswith("$")
    body = pattern[:-1] if anchored else pattern
    regex = "".join(".*" if ch == "*" else re.escape(ch) for ch in body)
    found = re.match(regex + ("$" if anchored else ""), path, re.DOTALL)
    return len(pattern) if found else -1


def decide(parsed: Parsed, user_agent: str, target: str) -> Decision:
    path = encode(path_of(target))
    agent = user_agent.strip().lower()  # the crawler's own token, compared as given (as Google's matcher does)
    specific = parsed.groups_for(agent) if agent and agent != "*" else []
    kind: GroupKind = "specific" if specific else "global"
    chosen = specific or [g for g in parsed.groups if "*" in g.agents]
    if path.split("?", 1)[0] == ROBOTS_PATH:
        return Decision(
            True,
            path,
            chosen[0] if chosen else None,
            kind if chosen else "none",
            None,
            "/robots.txt is always allowed: a crawler must be able to read the rules (RFC 9309 2.2.2).",
        )
    if not chosen:
        return Decision(
            True,
            path,
            None,
            "none",
            None,
            "No group applies to this crawler and there is no '*' group: everything is allowed.",
        )
    best: tuple[int, int, Rule] | None = None  # (length, allow wins ties, rule)
    for group in chosen:
        for rule in group.rules:
            length = match_length(rule.encoded, path)
            if length < 0:
                continue
            score = (length, 1 if rule.kind == "allow" else 0)
            if best is None or score > best[:2]:
                best = (*score, rule)
    lead = chosen[0]
    who = f"the group for {', '.join(lead.agents)} (line {lead.lines[0]})"
    if len(chosen) > 1:
        who = f"the {len(chosen)} groups for {user_agent if kind == 'specific' else '*'} merged (first at line {lead.lines[0]})"
    if best is None:
        return Decision(True, path, lead, kind, None, f"No rule of {who} matches {path}: allowed.")
    rule = best[2]
    verdict = "allowed" if rule.kind == "allow" else "disallowed"
    return Decision(
        rule.kind == "allow",
        path,
        lead,
        kind,
        rule,
        f"In {who}, '{rule.kind.capitalize()}: {rule.pattern}' (line {rule.line}) is the longest matching rule: {verdict}.",
    )


# --- generating a robots.txt, and verdicts under a status ---------------------------------------

MODES = {
    "allow_all": "Every crawler may fetch everything.",
    "block_all": "No crawler may fetch anything (the site drops out of search too).",
    "block_ai_training": "AI training crawlers and tokens are blocked; search engines and AI search crawlers keep access.",
    "block_ai": "Every AI crawler (training, AI search and user-triggered AI fetchers) is blocked; search engines keep access.",
}
BLOCKED_TYPES = {
    "allow_all": (),
    "block_all": (),
    "block_ai_training": ("train",),
    "block_ai": ("train", "ai_search", "user"),
}


def generate_robots(mode: str, blocked_tokens: list[str], sitemap: str | None) -> str:
    lines = [f"# robots.txt generated by twlookup seo, mode {mode}: {MODES[mode]}"]
    if mode == "block_all":
        lines += ["User-agent: *", "Disallow: /"]
    else:
        for token in blocked_tokens:
            lines += ["", f"User-agent: {token}", "Disallow: /"]
        lines += ["", "User-agent: *", "Allow: /"]
    if sitemap:
        lines += ["", f"Sitemap: {sitemap}"]
    return "\n".join(lines) + "\n"


def robots_verdicts(text: str | None, status: str, tokens: list[str], path: str = "/") -> dict[str, tuple[bool, str]]:
    """Whether each token may fetch path, with why, under RFC 9309's status rules."""
    if status == "unreachable":
        return dict.fromkeys(
            tokens, (False, "robots.txt is unreachable or answered 5xx: complete disallow (RFC 9309 2.3.1.4)")
        )
    if status == "unavailable":
        return dict.fromkeys(tokens, (True, "robots.txt answered 4xx: no restrictions (RFC 9309 2.3.1.3)"))
    parsed = parse(text or "")
    return {t: ((d := decide(parsed, t, path)).allowed, d.reason) for t in tokens}
