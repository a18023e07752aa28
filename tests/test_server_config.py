""".streamlit/config.toml is the production configuration: checked key by key, and seen in a served page."""

from __future__ import annotations

import tomllib
import urllib.request
from pathlib import Path

from tests.browser import streamlit_server

CONFIG = tomllib.loads((Path(__file__).resolve().parent.parent / ".streamlit" / "config.toml").read_text())


def test_production_settings():
    server, client = CONFIG["server"], CONFIG["client"]
    assert server["enableXsrfProtection"] is True
    assert 0 < server["maxUploadSize"] <= 2  # MB: a settings JSON is a few KB
    assert server["headless"] is True and server["fileWatcherType"] == "none"
    assert CONFIG["browser"]["gatherUsageStats"] is False
    assert client["showErrorDetails"] == "none"  # never a stack trace on the page
    assert CONFIG["runner"]["postScriptGC"] is False  # a full GC after every run: 7x slower under a class's load
    # no base: a light and a dark theme, the browser's preference picks one (ui/screen.py)
    assert "base" not in CONFIG["theme"]
    for scheme in ("light", "dark"):
        assert CONFIG["theme"][scheme]["primaryColor"].startswith("#")


def test_the_served_app_uses_it():
    """What the served app hands out reflects the file: XSRF on (the health check sets its token cookie)."""
    import json

    with streamlit_server() as url:
        with urllib.request.urlopen(f"{url}/_stcore/host-config", timeout=5) as r:
            host = json.loads(r.read())
        assert host.get("enableCustomParentMessages") is False and not host.get("metricsUrl")
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=5) as r:
            cookies = r.headers.get_all("Set-Cookie") or []
        assert any(c.startswith("_streamlit_xsrf") for c in cookies)  # XSRF protection hands out its token


def test_no_pages_folder_beside_the_app():
    """Streamlit 1.67 treats a folder named `pages` beside app.py as a legacy multipage app: a fresh server's first
    session then lists the folder's file names as the navigation and runs page files without app.py (frame.py).
    The page files live in app_pages/."""
    from streamlit.runtime.pages_manager import PagesManager

    root = Path(__file__).resolve().parent.parent
    assert not (root / "pages").exists()
    assert (root / "app_pages" / "home.py").exists()
    assert "main_script_parent / \"pages\"" in Path(PagesManager.__init__.__code__.co_filename).read_text()  # still so
