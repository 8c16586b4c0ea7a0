"""Content negotiation for the token surface: does the client prefer the human page to JSON?"""

from __future__ import annotations


def _weights(accept: str) -> dict[str, float]:
    weights: dict[str, float] = {}
    for part in accept.split(","):
        media, *parameters = (piece.strip() for piece in part.split(";"))
        weight = 1.0
        for parameter in parameters:
            name, _, value = parameter.partition("=")
            if name.strip().lower() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        if media:
            weights[media.lower()] = max(weight, weights.get(media.lower(), 0.0))
    return weights


def prefers_html(accept: str | None) -> bool:
    """True when `text/html` is named with q > 0 and weighs at least as much as JSON.

    `*/*` alone (curl, most API clients) and `application/json` get JSON; a browser gets the page.
    """
    if not accept:
        return False
    weights = _weights(accept)
    html = weights.get("text/html", 0.0)
    json = max(weights.get("application/json", 0.0), weights.get("application/problem+json", 0.0))
    return html > 0 and html >= json
