"""The README's pictures of the web app: the graph page over a store, with the best-supported edge's
evidence open; or the chat page after the questions given with --ask (answered by the served model).
Needs Chromium (apt-get install chromium) and playwright.

    python -m graphwright.bench.screenshot_web --store out/demo-store --out docs/img/web-graph.png
    python -m graphwright.bench.screenshot_web --store out/own-store --page /chat --out docs/img/web-chat.png \
        --ask "Who runs the company that bought Saltmarsh Robotics?"
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
from pathlib import Path

from graphwright.bench.web import CHROMIUM_ARGS, PAINTED, free_port, serve_in_thread
from graphwright.web.state import ServeConfig


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", type=Path, required=True)
    parser.add_argument("--out", type=Path, default=Path("docs/img/web-graph.png"))
    parser.add_argument("--page", default="/graph")
    parser.add_argument("--ask", action="append", default=[], help="with --page /chat: a question to send")
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
                    page.evaluate(
                        "() => { window.gwGraph.edges().max(e => e.data('support').length).ele.select().emit('tap'); }"
                    )
                for n, question in enumerate(args.ask, 1):  # each answered before the next is sent
                    page.fill("#question", question)
                    page.click("#send")
                    done = (
                        f"() => document.querySelectorAll('#turns .turn').length === {n} && "
                        "!document.getElementById('send').disabled"
                    )
                    while not page.evaluate(done):  # polled: the page's CSP forbids wait_for_function's eval
                        page.wait_for_timeout(500)
                page.evaluate(PAINTED)
                args.out.parent.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(args.out))
                browser.close()
        finally:
            server.should_exit = True
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
