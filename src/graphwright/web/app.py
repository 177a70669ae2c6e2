"""``graphwright serve``: the HTTP API (OpenAPI docs at /docs) and the pages that use it.

The pages are plain HTML (``web/pages``: one layout, each page's <main>) and JS (``web/static``, with
Cytoscape.js and Swagger UI vendored): nothing is fetched from elsewhere, so the app works offline. Their JS writes text from the graph with
``textContent`` only, and the Content-Security-Policy allows scripts from the app alone.
"""

from __future__ import annotations

from contextlib import asynccontextmanager
from importlib import resources
from string import Template

from fastapi import FastAPI, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

from graphwright.web import api_edits, api_graph, api_jobs
from graphwright.web.security import Guard
from graphwright.web.state import ServeConfig, ServerState

STATIC = resources.files("graphwright.web").joinpath("static")
PAGES_DIR = resources.files("graphwright.web").joinpath("pages")
# path -> (page file, title, its scripts after common.js); each page is its <main> inside pages/layout.html
PAGES = {
    "/": ("jobs.html", "jobs", ["jobs.js"]),
    "/graph": ("graph.html", "graph", ["vendor/cytoscape/cytoscape.min.js", "labels.js", "graph.js"]),
    "/query": ("sparql.html", "SPARQL", ["sparql.js"]),
    "/ask": ("ask.html", "ask", ["ask.js"]),
    "/chat": ("chat.html", "chat", ["chat.js"]),
}
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)


def create_app(config: ServeConfig) -> FastAPI:
    @asynccontextmanager
    async def lifespan(app: FastAPI):
        state = ServerState(config)
        app.state.server = state
        state.start()
        try:
            yield
        finally:
            await state.stop()

    app = FastAPI(
        title="graphwright",
        summary="Knowledge graphs from text with LLM agents",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
    )
    app.include_router(api_jobs.router)
    app.include_router(api_graph.router)
    app.include_router(api_edits.router)
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    for path, page in PAGES.items():
        app.add_api_route(path, _page(*page), methods=["GET"], include_in_schema=False)

    @app.get("/docs", include_in_schema=False)
    def docs() -> HTMLResponse:  # Swagger UI from the package, not a CDN, under a way back to the app
        page = get_swagger_ui_html(
            openapi_url="/openapi.json",
            title="graphwright API",
            swagger_js_url="/static/vendor/swagger-ui/swagger-ui-bundle.js",
            swagger_css_url="/static/vendor/swagger-ui/swagger-ui.css",
            swagger_favicon_url="/static/favicon.svg",
        )
        html = bytes(page.body).decode("utf-8").replace("<body>", f"<body>\n{DOCS_NAV}", 1)
        return HTMLResponse(html)

    @app.middleware("http")
    async def headers(request: Request, call_next):
        response = await call_next(request)
        if request.url.path != "/docs":  # Swagger UI starts with an inline script
            response.headers.setdefault("Content-Security-Policy", CSP)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        return response

    app.add_middleware(Guard, token=config.token, loopback_only=config.loopback_only, max_body=config.max_upload_bytes)
    return app


DOCS_NAV = (
    '<nav style="font: 14px sans-serif; padding: 8px 20px; border-bottom: 1px solid #ddd">'
    '<a href="/">← graphwright</a> · <a href="/graph">Graph</a> · <a href="/ask">Ask</a> · '
    '<a href="/query">SPARQL</a></nav>'
)


def _page(name: str, title: str, scripts: list[str]):
    """The page's route: its <main> in the shared layout, rendered once (the values are the app's own)."""
    tags = "\n".join(f'<script src="/static/{src}" defer></script>' for src in ["common.js", *scripts])
    html = Template(PAGES_DIR.joinpath("layout.html").read_text(encoding="utf-8")).substitute(
        title=title, scripts=tags, main=PAGES_DIR.joinpath(name).read_text(encoding="utf-8")
    )

    def page() -> HTMLResponse:
        return HTMLResponse(html)

    page.__name__ = "page_" + name.removesuffix(".html")
    return page
