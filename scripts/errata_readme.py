"""Write the README's section "Where the lecture notes are wrong" from the one errata list
(i18n/catalog_errata.py), so the README and the app's errata page never disagree.

    python scripts/errata_readme.py          # rewrite the section in README.md
    python scripts/errata_readme.py --check  # exit 1 if README.md differs from the list
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from explorer.errata import README_START, readme_section  # noqa: E402


def split_readme(text: str) -> tuple[str, str, str]:
    """(before, the errata section, after): the section runs from its heading to the next '## ' heading."""
    start = text.index(README_START)
    nxt = text.find("\n## ", start + len(README_START))
    end = len(text) if nxt < 0 else nxt + 1
    return text[:start], text[start:end], text[end:]


def main() -> int:
    path = ROOT / "README.md"
    text = path.read_text(encoding="utf-8")
    before, section, after = split_readme(text)
    wanted = readme_section() + ("\n" if after else "")
    if "--check" in sys.argv:
        return 0 if section == wanted else 1
    path.write_text(before + wanted + after, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
