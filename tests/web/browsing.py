"""What the accessibility tests share (a fixture module, not tests): axe-core from the npm registry injected
into a page, and the size of every control."""

from __future__ import annotations

import tarfile
from functools import cache
from pathlib import Path
from typing import Any

from tests.web.chromium import ARGS, ARTEFACTS, CHROMIUM

__all__ = ["ARGS", "ARTEFACTS", "CHROMIUM", "axe", "controls_measured", "small_controls"]
AXE_VERSION = "4.14.1"  # dev.py's NPM_TEST_PACKAGES
AXE_TARBALL = Path(__file__).parents[2] / ".venv" / "npm" / f"axe-core-{AXE_VERSION}.tgz"
NO_CHROMIUM = "Debian's chromium is not installed (dev.py test installs it)"
SMALLEST = 44  # px: the least width and height of anything a finger presses (WCAG 2.5.5)


@cache
def axe_source() -> str:
    """axe-core's script, from the tarball `npm pack` fetched (dev.py does it)."""
    if not AXE_TARBALL.exists():
        raise AssertionError(f"{AXE_TARBALL} is missing: `python3 dev.py test` fetches axe-core@{AXE_VERSION} "
                             f"with npm pack (or run: npm pack --pack-destination .venv/npm axe-core@{AXE_VERSION})")
    with tarfile.open(AXE_TARBALL) as tar:
        member = tar.extractfile("package/axe.min.js")
        assert member is not None
        return member.read().decode("utf-8")


def axe(page: Any) -> list[str]:
    """axe-core's violations on the page as it stands (WCAG 2.x A and AA and best practices), one line each:
    the rule, and the first elements it names."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=axe_source())
    found = page.evaluate("async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
                          ".map(v => `${v.id}: ${v.help} (${v.nodes.slice(0, 3).map(n => n.target.join(' '))"
                          ".join('; ')})`)")
    return list(found)


CONTROLS = "button, a[href], select, input, textarea, summary, [role=button], [tabindex]:not([tabindex='-1'])"


def small_controls(page: Any) -> list[str]:
    """Every visible control smaller than SMALLEST px either way, with its size (a checkbox or radio button is
    pressed through its label, which is measured)."""
    return list(page.evaluate("""([selector, least]) => {
        const out = [];
        for (const node of document.querySelectorAll(selector)) {
            let target = node;
            if (node.matches("input[type=checkbox], input[type=radio]") && node.closest("label")) {
                target = node.closest("label");
            }
            const box = target.getBoundingClientRect();
            const style = getComputedStyle(target);
            if (!box.width || !box.height || style.visibility === "hidden") continue;
            if (box.width < least - 0.5 || box.height < least - 0.5) {
                const name = (node.id ? "#" + node.id : node.tagName.toLowerCase()) + " "
                    + (node.textContent || node.name || "").trim().slice(0, 20);
                out.push(`${name}: ${Math.round(box.width)}x${Math.round(box.height)}`);
            }
        }
        return out;
    }""", [CONTROLS, SMALLEST]))


def controls_measured(page: Any) -> int:
    return int(page.evaluate("(s) => [...document.querySelectorAll(s)].filter(n => n.getBoundingClientRect().width)"
                             ".length", CONTROLS))
