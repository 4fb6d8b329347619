// The start banner of scripts/up.sh: the local URLs, the demo tenant's keys, the portal users and,
// only when the Partner API is on (PSFE_PARTNER_API_ENABLED=true), the demo Partner's key and an
// example: with it off every /partner/v1 route answers 404, and the banner must not say otherwise;
// and that webhooks may go to localhost when WEBHOOKS_ALLOW_PRIVATE_TARGETS=true (development only).
// Usage: node scripts/up-banner.mjs <demo json> <api> <web> <worker> <sim> <mail> <smtp>
const [demoJson, api, web, worker, sim, mail, smtp] = process.argv.slice(2);
const demo = JSON.parse(demoJson);
const partnerApiEnabled = process.env.PSFE_PARTNER_API_ENABLED === 'true';
const rows = [
  ['API (REST)', `http://127.0.0.1:${api}`, 'GET /healthz, /readyz, /metrics, /docs'],
  [
    'Reception (/fe)',
    `http://127.0.0.1:${process.env.RECEPTION_PORT ?? '3004'}`,
    "suppliers' e-CF and approvals (the API forwards its /fe here)",
  ],
  ['Portal', `http://127.0.0.1:${web}`, 'sign in with a demo user below'],
  ['Worker health', `http://127.0.0.1:${worker}/healthz`, 'pg-boss jobs'],
  ['Tax authority simulator', `http://127.0.0.1:${sim}`, 'GET /_sim/health'],
  ['Mail catcher', `http://127.0.0.1:${mail}`, `buyer e-mails (SMTP 127.0.0.1:${smtp}); click the PDF link`],
];
const lines = ['', '  Service                   URL                              Notes'];
for (const [name, url, notes] of rows) lines.push(`  ${name.padEnd(25)} ${url.padEnd(32)} ${notes}`);
lines.push('', `  Demo tenant: ${demo.tenant.legalName} (RNC ${demo.tenant.rnc})`);
for (const [environment, key] of Object.entries(demo.keys))
  lines.push(`  ${environment.padEnd(8)} X-API-KEY: ${key}`);
lines.push('', `  Portal users (http://127.0.0.1:${web}/sign-in):`);
lines.push(`  owner    ${demo.portalUsers.owner.email}  password ${demo.portalUsers.owner.password}`);
lines.push(`  support  ${demo.portalUsers.support.email}  password ${demo.portalUsers.support.password}`);
if (partnerApiEnabled) {
  lines.push('', `  Partner API (/partner/v1): ${demo.partner.name}, origin ${demo.partner.origin}`);
  lines.push(`  full     X-PARTNER-KEY: ${demo.partner.key}`);
  lines.push(`  taxpayers it may link (demo registry): ${demo.partner.registryRncs.join(', ')}`);
} else {
  lines.push(
    '',
    '  Partner API (/partner/v1): off (PSFE_PARTNER_API_ENABLED=false); every Partner route answers 404.',
  );
}
if (process.env.WEBHOOKS_ALLOW_PRIVATE_TARGETS === 'true') {
  lines.push(
    '',
    '  Webhooks: endpoints on localhost and private addresses (http) are allowed: development only',
    '  (WEBHOOKS_ALLOW_PRIVATE_TARGETS=true); production leaves it false.',
  );
}
lines.push(
  '',
  `  Try: curl -H "X-API-KEY: ${demo.keys.TesteCF}" http://127.0.0.1:${api}/TesteCF/contingencia`,
);
if (partnerApiEnabled) {
  lines.push(
    `  Partner: curl -X PUT -H "X-PARTNER-KEY: ${demo.partner.key}" -H "content-type: application/json" \\`,
  );
  lines.push(
    `    -d ${JSON.stringify(JSON.stringify({ rnc: demo.partner.registryRncs[0] }))} http://127.0.0.1:${api}/partner/v1/fiscal-accounts/by-external-id/cliente-1`,
  );
}
lines.push('  Ctrl-C stops everything.', '');
console.log(lines.join('\n'));
