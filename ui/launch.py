"""`mha-explorer`: the app's server, started as README's first command starts it (`python3 -m ui.streamlit_guard run
serve.py`, in the app's folder), from wherever the package is installed (`pip install .[app]`: the app's files are in
site-packages/mha_explorer_app/, laid out as in this repository). Its options are Streamlit's:
`mha-explorer --server.port 9000`. Needs no Streamlit to be imported; says what to install when it is missing."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent  # serve.py, app.py, static/, .streamlit/config.toml


def command(args: list[str]) -> list[str]:
    """README's first command with `args` after it (Streamlit's options)."""
    return [sys.executable, "-m", "ui.streamlit_guard", "run", "serve.py", *args]


def main(argv: list[str] | None = None) -> None:
    """Run the server in the app's folder (where Streamlit reads .streamlit/config.toml and serves static/); on POSIX
    it replaces this process, so that a stop signal reaches the server itself."""
    args = sys.argv[1:] if argv is None else argv
    if importlib.util.find_spec("streamlit") is None:
        from i18n import t

        sys.exit(t("launch.needs_app", "en"))
    os.chdir(ROOT)
    if os.name == "posix":
        os.execv(sys.executable, command(args))
    sys.exit(subprocess.call(command(args)))


if __name__ == "__main__":
    main()
