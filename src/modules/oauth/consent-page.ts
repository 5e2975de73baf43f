import type { AuthorizationOutcome } from './commands/start-authorization/start-authorization.command';

const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The small consent page for browsers: a plain form posted to /api/oauth/consent (same origin), no script. */
export function consentPage(c: Extract<AuthorizationOutcome, { kind: 'consent' }>): string {
  const name = esc(c.client.client_name ?? c.client.client_id);
  const agents = c.agents.length
    ? c.agents
        .map(
          (a) =>
            `<li><label><input type="checkbox" name="agent_ids" value="${esc(a.id)}"> ${esc(a.display_name)} <small>(${esc(a.organization.name)}, ${esc(a.designation)})</small></label></li>`,
        )
        .join('')
    : '<li>You manage no agents yet.</li>';
  return `<!doctype html><html><head><meta charset="utf-8"><title>Connect ${name}</title></head><body>
<h1>Connect ${name}</h1>
<p>${name} asks to act as the agents you choose on <code>${esc(c.resource)}</code>. It will be sent back to <code>${esc(c.client.redirect_uri)}</code>.</p>
<form method="post" action="/api/oauth/consent">
<input type="hidden" name="authorization_id" value="${esc(c.authorization_id)}">
<ul>${agents}</ul>
<button type="submit" name="approve" value="true">Allow</button>
<button type="submit" name="approve" value="false" formnovalidate>Deny</button>
</form></body></html>`;
}
