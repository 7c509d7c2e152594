"""Private services: their query strings never reach the access log."""

import logging

from twlookup.platform import privacy


def access_record(path: str) -> logging.LogRecord:
    # The shape uvicorn's access logger uses: (client, method, full path, http version, status)
    return logging.LogRecord(
        "uvicorn.access",
        logging.INFO,
        __file__,
        1,
        '%s - "%s %s HTTP/%s" %d',
        ("1.2.3.4:5", "GET", path, "1.1", 200),
        None,
    )


def test_query_of_private_service_is_cut_and_others_are_kept():
    f = privacy.RedactPrivateQueries({"health"}, set())
    rec = access_record("/health/api/bp-check?readings=150/95")
    f.filter(rec)
    assert "150/95" not in rec.getMessage() and "/health/api/bp-check?[redacted]" in rec.getMessage()
    rec = access_record("/models/api/model?id=gpt-4")
    f.filter(rec)
    assert "id=gpt-4" in rec.getMessage()


def test_with_a_private_host_every_query_is_cut():
    f = privacy.RedactPrivateQueries({"wellness"}, {"wellness.example.com"})
    rec = access_record("/api/telehealth?situation=x")
    f.filter(rec)
    assert "situation=x" not in rec.getMessage()


def test_install_replaces_and_app_installs_for_private_services(settings):
    from twlookup.app import create_app
    from twlookup.platform.service import Service

    create_app(settings, services=[Service(name="wellness", title="w", description="d", private=True)])
    create_app(settings, services=[Service(name="wellness", title="w", description="d", private=True)])
    filters = [f for f in logging.getLogger("uvicorn.access").filters if isinstance(f, privacy.RedactPrivateQueries)]
    assert len(filters) == 1
    create_app(settings, services=[])
    assert not [f for f in logging.getLogger("uvicorn.access").filters if isinstance(f, privacy.RedactPrivateQueries)]
