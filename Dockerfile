# The explorer as a small CPU-only image. Build: docker build -t mha-explorer .   Run: docker run -p 8501:8501 mha-explorer
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

# torch from PyTorch's CPU wheel index first (no CUDA libraries: ~1.5 GB smaller); requirements.txt pins the same
# version, which the +cpu build satisfies, so the second install keeps it.
COPY requirements.txt .
RUN pip install --no-cache-dir --index-url https://download.pytorch.org/whl/cpu torch==2.13.0 \
    && pip install --no-cache-dir -r requirements.txt

RUN useradd --create-home --uid 10001 explorer
COPY --chown=explorer:explorer . .
USER 10001

EXPOSE 8501
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import urllib.request, sys; r = urllib.request.urlopen('http://127.0.0.1:8501/_stcore/health', timeout=4); sys.exit(0 if r.read() == b'ok' else 1)"]

CMD ["python", "-m", "streamlit", "run", "app.py", "--server.headless=true", "--server.fileWatcherType=none", "--server.address=0.0.0.0", "--server.port=8501", "--browser.gatherUsageStats=false"]
