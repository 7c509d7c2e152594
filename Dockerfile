# twlookup's image: the wheel is built and installed into a virtualenv in one stage, and the
# virtualenv alone is copied into a slim runtime that runs as an unprivileged user.
#
#   docker build -t twlookup .
#   docker build --build-arg PYTHON_IMAGE=twlookup-base:bookworm -t twlookup .   # no registry: see deploy/images
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
# pip and setuptools leave the virtualenv once it is installed: the runtime installs nothing
RUN python -m venv /opt/build \
 && /opt/build/bin/pip wheel --quiet --no-deps --wheel-dir /dist . \
 && python -m venv /opt/twlookup \
 && /opt/twlookup/bin/pip install --quiet /dist/twlookup-*.whl \
 && /opt/twlookup/bin/pip uninstall --quiet --yes pip setuptools \
 && find /opt/twlookup -name 'tests' -path '*/site-packages/*/tests' -prune -exec rm -rf {} + \
 && find /opt/twlookup \( -name '*.pyi' -o -name '*.pyx' -o -name '*.c' -o -name '*.h' \) -delete \
 && /opt/twlookup/bin/python -m compileall -q /opt/twlookup/lib >/dev/null
# shared libraries without their symbol tables (strip, from binutils, in this stage only)
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends binutils >/dev/null \
 && find /opt/twlookup -type f \( -name '*.so' -o -name '*.so.*' \) -exec strip --strip-unneeded {} +

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
# checked every 3 s, so a replica counts as healthy (and nginx and `depends_on` use it) within
# about 3 s of serving; start-up (migration and seed on the first replica) may take 90 s
HEALTHCHECK --interval=3s --timeout=3s --start-period=90s --retries=3 \
  CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('TWLOOKUP_PORT', '8000'), timeout=4)"]
CMD ["twlookup", "serve", "--host", "0.0.0.0"]
