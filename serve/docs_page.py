"""The interactive API page at /docs: one self-contained HTML document, no CDN and no other asset.

Swagger UI is not bundled (its assets are not a dependency of groundwatch), so the page is ours:
the OpenAPI document is embedded in it, every operation is listed with its parameters, request
body and responses, and a form sends a request to the same server with the bearer token typed
into the page (kept in the page only, never stored). Served behind the same token as /v1.
"""

from __future__ import annotations

import html
import json

_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} {version}: API</title>
<style>
body{{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:60rem;padding:0 1rem;color:#1d1d1f}}
h1{{font-size:1.4rem}} h2{{font-size:1.05rem;margin:0}} code,pre,textarea{{font:12px/1.4 ui-monospace,monospace}}
details{{border:1px solid #ccd;border-radius:6px;margin:.6rem 0;padding:.5rem .8rem}}
summary{{cursor:pointer}} .m{{display:inline-block;min-width:3.5rem;font-weight:600}}
.get{{color:#0a6}} .post{{color:#06c}} pre{{background:#f5f5f7;padding:.6rem;overflow:auto;max-height:24rem}}
textarea{{width:100%;min-height:8rem}} label{{display:block;margin:.4rem 0}}
</style></head><body>
<h1>{title} {version}</h1>
<p>{description}</p>
<label>Bearer token (serve.auth_token; kept in this page only)
<input id="token" type="password" autocomplete="off" size="40"></label>
<div id="ops"></div>
<script id="openapi" type="application/json">{spec}</script>
<script>
"use strict";
const spec = JSON.parse(document.getElementById("openapi").textContent);
const ops = document.getElementById("ops");
function el(tag, attrs, ...kids) {{
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {{}})) node.setAttribute(k, v);
  for (const kid of kids) node.append(kid);
  return node;
}}
function resolve(schema) {{
  const ref = schema && schema["$ref"];
  return ref ? spec.components.schemas[ref.split("/").pop()] : schema;
}}
for (const [path, methods] of Object.entries(spec.paths)) {{
  for (const [method, op] of Object.entries(methods)) {{
    const box = el("details", {{}}, el("summary", {{}}, el("span", {{class: "m " + method}}, method.toUpperCase()),
                                       el("code", {{}}, path), " ", op.summary || ""));
    if (op.description) box.append(el("p", {{}}, op.description));
    for (const p of op.parameters || [])
      box.append(el("div", {{}}, el("code", {{}}, p.name), ` (${{p.in}}${{p.required ? ", required" : ""}})`));
    const body = op.requestBody && op.requestBody.content["application/json"];
    if (body) box.append(el("h2", {{}}, "Request body"), el("pre", {{}}, JSON.stringify(resolve(body.schema), null, 1)));
    box.append(el("h2", {{}}, "Responses"));
    for (const [code, r] of Object.entries(op.responses || {{}}))
      box.append(el("div", {{}}, el("code", {{}}, code), " " + (r.description || "")));
    const input = el("textarea", {{placeholder: body ? "JSON body" : "(no body)"}});
    const out = el("pre", {{}}, "");
    const send = el("button", {{type: "button"}}, "Send");
    send.onclick = async () => {{
      const headers = {{"Content-Type": "application/json"}};
      const token = document.getElementById("token").value;
      if (token) headers.Authorization = "Bearer " + token;
      try {{
        const answer = await fetch(path, {{method: method.toUpperCase(), headers,
                                           body: body ? input.value : undefined}});
        out.textContent = answer.status + " " + answer.statusText + "\\n" + await answer.text();
      }} catch (e) {{ out.textContent = String(e); }}
    }};
    box.append(el("h2", {{}}, "Try it"), body ? input : "", send, out);
    ops.append(box);
  }}
}}
</script></body></html>
"""


def docs_page(spec: dict) -> str:
    """The page for `spec` (an OpenAPI document); `<` is escaped so no text can close the script."""
    embedded = json.dumps(spec, separators=(",", ":")).replace("<", "\\u003c")
    info = spec.get("info", {})
    return _PAGE.format(title=html.escape(str(info.get("title", ""))), version=html.escape(str(info.get("version", ""))),
                        description=html.escape(str(info.get("description", "")).split("\n\n")[0]), spec=embedded)
