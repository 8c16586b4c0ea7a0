"""The signed-in inbox page (`GET /inbox`) and the interrupt it opens in place. Pure.

The page is served to anyone (it holds no data); its script signs the person in with OpenID Connect
authorization code + PKCE against the configured issuer (a public client: no secret anywhere), keeps
the access token in memory only (the PKCE verifier and state wait in sessionStorage during the
redirect, and are removed when it comes back), lists `GET /interrupts?status=pending` (refreshing),
opens one in place (`GET /inbox/interrupts/{runId}/{nodeId}`: the link page's own content and form),
and sends its form to the run surface (`POST /runs/{runId}/interrupts/{nodeId}`, the JWT). Every
script and style is inline under the response's nonce; the only other origin it may reach is the
token endpoint's (`connect-src`). docs/inbox.md.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from html import escape
from importlib.resources import files
from string import Template
from urllib.parse import urlsplit

from waitgate.page.render import PageContext, RenderedPage, interrupt_parts, layout_page

_SCRIPT = Template(files("waitgate.page").joinpath("inbox_script.html").read_text(encoding="utf-8"))
TITLE = "What waits for you"


@dataclass(frozen=True)
class SignIn:
    """How the page signs a person in (template parameters Inbox*; docs/inbox.md)."""

    client_id: str = ""
    scope: str = "openid"
    authorization_endpoint: str = ""
    token_endpoint: str = ""
    authorize_parameters: str = ""  # more query parameters for the authorize request (a=b&c=d)
    tenant_claim: str = "tenant"
    problem: str = ""  # why sign-in cannot work (not configured, discovery failed); "" when it can

    @property
    def token_origin(self) -> str:
        parts = urlsplit(self.token_endpoint)
        return f"{parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else ""


def inbox_page(sign_in: SignIn, base_path: str) -> RenderedPage:
    """The page; `base_path` is the API's path before `/inbox` ("" on the HttpApi's own URL)."""
    config = {
        "clientId": sign_in.client_id,
        "scope": sign_in.scope,
        "authorizationEndpoint": sign_in.authorization_endpoint,
        "tokenEndpoint": sign_in.token_endpoint,
        "authorizeParameters": sign_in.authorize_parameters,
        "tenantClaim": sign_in.tenant_claim,
        "base": base_path,
        "problem": sign_in.problem,
    }
    data = json.dumps(config, separators=(",", ":"))
    for character, escaped in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"), ("$", "\\u0024")):
        data = data.replace(character, escaped)  # inert inside <script>, and no $ for the template
    main = f"""<h1>{TITLE}</h1>
<div class="signin" id="signin">
<p id="who" role="status">{escape(sign_in.problem) if sign_in.problem else "You are not signed in."}</p>
<p class="inbox-buttons"><button type="button" id="sign-in" class="primary" hidden>Sign in</button>
<button type="button" id="refresh" hidden>Refresh</button>
<button type="button" id="sign-out" hidden>Sign out</button></p>
</div>
<noscript><p class="notice gone">This page needs JavaScript to sign you in. The links in your
notifications work without it.</p></noscript>
<p id="said" class="notice recorded" role="status" aria-live="polite" hidden></p>
<section id="list" aria-labelledby="list-heading" hidden>
<h2 id="list-heading">Waiting for you</h2>
<p id="list-status" aria-live="polite"></p>
<ul id="items" class="inbox-items"></ul>
<p><button type="button" id="more" hidden>Show more</button></p>
</section>
<section id="opened" aria-label="The request you opened" hidden>
<p><button type="button" id="back">Back to the list</button></p>
<div id="opened-problem" class="error-summary" role="alert" tabindex="-1" hidden></div>
<div id="opened-body"></div>
</section>"""
    connect = (sign_in.token_origin,) if sign_in.token_origin else ()
    script = Template(_SCRIPT.safe_substitute(config=data))
    return layout_page(TITLE, "waitgate · inbox", main, with_script=True, more_script=script, connect=connect)


_HEADING = re.compile(r"<(/?)h([1-5])\b")


def inbox_fragment(context: PageContext) -> str:
    """One interrupt as the inbox opens it in place: the link page's own content and form, its
    headings one level down (the inbox keeps its own h1). No script, no style: the page's apply."""
    title, main, footer = interrupt_parts(context)
    shifted = _HEADING.sub(lambda m: f"<{m.group(1)}h{int(m.group(2)) + 1}", main)
    # where it waits, said once at its top: the inbox page has its own footer (two read as a glitch)
    where = f'<p class="where">{footer.removeprefix("waitgate · ").replace("run", "Run", 1)}</p>'
    return f'<article class="opened" data-title="{escape(title)}">{where}{shifted}</article>'
