"""The README's picture of the web app: the graph page over a store, with the best-supported edge's
evidence open. Needs Chromium (apt-get install chromium) and playwright.

    python scripts/screenshot_web.py --store out/demo-store --out docs/img/web-graph.png
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
from pathlib import Path

from bench_web import CHROMIUM_ARGS, PAINTED, free_port, serve_in_thread

from graphwright.web.state import ServeConfig


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", type=Path, required=True)
    parser.add_argument("--out", type=Path, default=Path("docs/img/web-graph.png"))
    parser.add_argument("--page", default="/graph")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    port = free_port()
    with tempfile.TemporaryDirectory() as data:
        server = serve_in_thread(ServeConfig(store=args.store, data=Path(data)), port)
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS)
                page = browser.new_page(viewport={"width": 1280, "height": 720})
                page.goto(f"http://127.0.0.1:{port}{args.page}")
                if args.page == "/graph":
                    while not page.evaluate("() => Boolean(window.gwGraph && window.gwGraph.edges().length)"):
                        page.wait_for_timeout(100)
                    page.evaluate("() => { window.gwGraph.edges().max(e => e.data('support').length).ele.select().emit('tap'); }")
                page.evaluate(PAINTED)
                args.out.parent.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(args.out))
                browser.close()
        finally:
            server.should_exit = True
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
