"""The seo service's operations, declared by subject: search (search URLs and operators, market
share, submit guide, SERP preview, meta tags, video check), crawlers (robots.txt generation and
testing, the crawler list, IP verification), indexnow, and site_check (the site check and the
paid page audit). site.py fetches a site's files for the checks; dns.py confirms a crawler's
address by reverse and forward DNS."""

from twlookup.services.seo.operations import crawlers, indexnow, search, site_check
from twlookup.services.seo.operations.service import SERVICE

__all__ = ["SERVICE", "crawlers", "indexnow", "search", "site_check"]

# Discovery shows no answer to these examples: running them would fetch a site or submit URLs.
for _op in SERVICE.operations:
    if _op.path in ("/api/pro/seo-audit", "/api/pro/instantindex-bulk"):
        _op.example_output = False
