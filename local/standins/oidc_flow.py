"""The local issuer's sign-in for a browser: OpenID Connect authorization code + PKCE, as the inbox
page (docs/inbox.md) uses Cognito's hosted UI or any provider on AWS.

- `GET  /.local-issuer/authorize` — a dev sign-in form: choose the `sub`, the tenant, the groups and
  roles claims and the scopes (nothing is checked: it is a development stand-in).
- `POST /.local-issuer/authorize` — signs in: redirects to `redirect_uri?code=...&state=...`.
- `POST /.local-issuer/token` — `grant_type=authorization_code` with the code, the same `client_id`
  and `redirect_uri`, and the PKCE `code_verifier` whose S256 is the challenge; once per code, within
  a minute. No client secret: the client is public. Answers the access token the gateway accepts.

Only redirect URIs of the stack's own API are accepted (no open redirect). Codes live in memory.
"""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import threading
import time
from dataclasses import dataclass, field
from html import escape
from typing import Any
from urllib.parse import urlencode, urlsplit

from werkzeug.wrappers import Request, Response

from local.standins.jwt_issuer import LocalIssuer, caller_claims

CODE_SECONDS = 60
TOKEN_SECONDS = 3600
SCOPES = ("approvals:respond", "runs:read", "interrupts:mint")


@dataclass(frozen=True)
class _Grant:
    client_id: str
    redirect_uri: str
    challenge: str
    claims: dict[str, Any]
    expires: float


@dataclass
class OidcFlow:
    issuer: LocalIssuer
    api_url: str
    tenant_claim: str = "tenant"
    _codes: dict[str, _Grant] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def respond(self, path: str, request: Request) -> Response | None:
        if path == "/authorize" and request.method == "GET":
            return self._form(request.args)
        if path == "/authorize" and request.method == "POST":
            return self._sign_in(request.form)
        if path == "/token" and request.method == "POST":
            return self._token(request.form)
        return None

    # the authorize endpoint
    def _refused(self, args: Any) -> str | None:
        if args.get("response_type") != "code":
            return "response_type must be code."
        if not args.get("client_id"):
            return "client_id is required."
        if args.get("code_challenge_method") != "S256" or not args.get("code_challenge"):
            return "PKCE is required: code_challenge with code_challenge_method=S256."
        redirect = str(args.get("redirect_uri", ""))
        if urlsplit(redirect).netloc != urlsplit(self.api_url).netloc or not redirect.startswith(
            self.api_url + "/"
        ):
            return "redirect_uri must be a page of this stack's API."
        return None

    def _form(self, args: Any) -> Response:
        refused = self._refused(args)
        if refused:
            return _page(400, "Sign-in refused", f'<p class="refused">{escape(refused)}</p>')
        hidden = "".join(
            f'<input type="hidden" name="{name}" value="{escape(str(args.get(name, "")))}">'
            for name in ("response_type", "client_id", "redirect_uri", "state", "code_challenge",
                         "code_challenge_method", "nonce")
        )  # fmt: skip
        asked = " ".join(s for s in str(args.get("scope", "")).split() if s != "openid") or " ".join(
            SCOPES[:2]
        )
        main = f"""<p>A development stand-in of your identity provider: sign in as anyone. Eligibility by
group or role comes from the directory (<code>waitgate directory add-member</code>), as on AWS; the
groups and roles below are only claims in the token.</p>
<form method="post" action="authorize">{hidden}
<p><label for="sub">Principal (sub)</label><input id="sub" name="sub" required autocomplete="username"></p>
<p><label for="tenant">Tenant</label><input id="tenant" name="tenant" value="default"></p>
<p><label for="groups">Groups (comma-separated)</label><input id="groups" name="groups"></p>
<p><label for="roles">Roles (comma-separated)</label><input id="roles" name="roles"></p>
<p><label for="scope">Scopes (space-separated)</label>
<input id="scope" name="scope" value="{escape(asked)}"></p>
<p><button type="submit" name="signin" value="yes">Sign in</button></p>
</form>"""
        return _page(200, "Sign in (local issuer)", main)

    def _sign_in(self, form: Any) -> Response:
        refused = self._refused(form)
        sub = str(form.get("sub", "")).strip()
        if refused or not sub:
            return _page(
                400, "Sign-in refused", f'<p class="refused">{escape(refused or "Name a principal.")}</p>'
            )
        tenant = str(form.get("tenant", "")).strip()
        claims = caller_claims(
            sub=sub,
            scope=" ".join(str(form.get("scope", "")).split()),
            tenant=tenant if tenant and tenant != "default" else None,
            tenant_claim=self.tenant_claim,
            groups=[g.strip() for g in str(form.get("groups", "")).split(",") if g.strip()],
            roles=[r.strip() for r in str(form.get("roles", "")).split(",") if r.strip()],
        )
        code = secrets.token_urlsafe(24)
        grant = _Grant(
            str(form["client_id"]), str(form["redirect_uri"]), str(form["code_challenge"]), claims,
            time.monotonic() + CODE_SECONDS,
        )  # fmt: skip
        with self._lock:
            self._codes = {c: g for c, g in self._codes.items() if g.expires > time.monotonic()}
            self._codes[code] = grant
        answer = {"code": code, **({"state": form["state"]} if form.get("state") else {})}
        return Response(status=302, headers={"Location": f"{grant.redirect_uri}?{urlencode(answer)}",
                                             "Cache-Control": "no-store"})  # fmt: skip

    # the token endpoint
    def _token(self, form: Any) -> Response:
        if form.get("grant_type") != "authorization_code":
            return _oauth_error("unsupported_grant_type", "Only authorization_code is supported.")
        if form.get("client_secret"):
            return _oauth_error("invalid_client", "This client is public: it sends no secret.")
        with self._lock:
            grant = self._codes.pop(str(form.get("code", "")), None)  # once per code
        if grant is None or grant.expires <= time.monotonic():
            return _oauth_error("invalid_grant", "The code is unknown, used or expired.")
        if form.get("client_id") != grant.client_id or form.get("redirect_uri") != grant.redirect_uri:
            return _oauth_error("invalid_grant", "client_id or redirect_uri is not the authorize request's.")
        if _s256(str(form.get("code_verifier", ""))) != grant.challenge:
            return _oauth_error("invalid_grant", "The code_verifier does not match the code_challenge.")
        access = self.issuer.mint({**grant.claims, "client_id": grant.client_id}, ttl_seconds=TOKEN_SECONDS)
        identity = self.issuer.mint(
            {"sub": grant.claims["sub"], "aud": grant.client_id, "token_use": "id"}, ttl_seconds=TOKEN_SECONDS
        )
        body = {
            "access_token": access,
            "id_token": identity,
            "token_type": "Bearer",
            "expires_in": TOKEN_SECONDS,
            "scope": grant.claims["scope"],
        }
        return Response(
            json.dumps(body), content_type="application/json", headers={"Cache-Control": "no-store"}
        )


def _s256(verifier: str) -> str:
    if not 43 <= len(verifier) <= 128:
        return ""
    digest = hashlib.sha256(verifier.encode("ascii", "replace")).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def _oauth_error(code: str, description: str) -> Response:
    body = json.dumps({"error": code, "error_description": description})
    return Response(body, status=400, content_type="application/json", headers={"Cache-Control": "no-store"})


_STYLE = (
    "body{font:16px/1.5 system-ui,sans-serif;max-width:34rem;margin:2rem auto;padding:0 1rem;color:#1b1f24}"
    "label{display:block;font-weight:600}input{font:inherit;width:100%;padding:.4rem;margin:.2rem 0 .6rem;"
    "box-sizing:border-box;border:1px solid #57606a;border-radius:4px}"
    "button{font:inherit;font-weight:600;padding:.5rem 1rem;border-radius:6px;border:1px solid #0b57d0;"
    "background:#0b57d0;color:#fff}.refused{color:#a40e26;font-weight:600}code{font-size:.9em}"
)


def _page(status: int, title: str, main: str) -> Response:
    nonce = secrets.token_urlsafe(12)
    html = f"""<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)} · waitgate local</title><style nonce="{nonce}">{_STYLE}</style></head>
<body><main><h1>{escape(title)}</h1>{main}</main></body></html>"""
    policy = (
        f"default-src 'none'; style-src 'nonce-{nonce}'; form-action 'self' http://127.0.0.1:*; "
        "base-uri 'none'; frame-ancestors 'none'"
    )
    headers = {
        "Content-Security-Policy": policy,
        "Cache-Control": "no-store",
        "Referrer-Policy": "no-referrer",
    }
    return Response(html, status=status, content_type="text/html; charset=utf-8", headers=headers)
