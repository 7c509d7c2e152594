# syntax=docker/dockerfile:1
# twlookup's image: the wheel is built and installed into a virtualenv in one stage, and the
# virtualenv alone is copied into a slim runtime that runs as an unprivileged user.
#
#   docker build -t twlookup .
#   docker run -p 8000:8000 twlookup          # SQLite inside the container; see docker-compose.yml
#
# Settings are TWLOOKUP_* environment variables (README, .env.example); DATABASE_URL and
# REDIS_URL are read too. Worker processes: TWLOOKUP_WORKERS.
ARG PYTHON_IMAGE=python:3.11-slim-bookworm

FROM ${PYTHON_IMAGE} AS build
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1
WORKDIR /src
COPY pyproject.toml setup.py README.md LICENSE ./
COPY src ./src
COPY migrations ./migrations
COPY data ./data
# the wheel carries the migrations and the reference data (setup.py maps them into the package);
# pip compiles the bytecode while installing, so the container starts without compiling
RUN python -m pip wheel --no-deps --wheel-dir /dist . \
 && python -m venv /opt/twlookup \
 && /opt/twlookup/bin/pip install /dist/twlookup-*.whl

FROM ${PYTHON_IMAGE} AS runtime
ENV PATH=/opt/twlookup/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    TWLOOKUP_PORT=8000 \
    TWLOOKUP_WORKERS=2
RUN useradd --system --user-group --uid 10001 --home-dir /app --create-home twlookup
COPY --from=build /opt/twlookup /opt/twlookup
# the default SQLite store (var/twlookup.db) and the search segmenter's cache live under here
WORKDIR /app
USER twlookup
EXPOSE 8000
# /healthz: 200 while the store answers (also when only Redis is down), 503 when it does not;
# urlopen raises on a 503 or no answer, which fails the check
HEALTHCHECK --interval=15s --timeout=5s --start-period=90s --retries=3 \
  CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('TWLOOKUP_PORT', '8000'), timeout=4)"]
CMD ["twlookup", "serve", "--host", "0.0.0.0"]
