// `node scripts/audit.mjs`: runs `npm audit --json` and fails on any high or critical advisory that is not in
// audit-allowlist.json, where every entry names the advisory and says why it does not apply here.
//
//   --input FILE        read `npm audit --json` output from FILE instead of running npm audit (tests)
//   --allowlist FILE    the allow-list (default: audit-allowlist.json beside package.json)
//   --require-endpoint  fail when the registry's advisory endpoint cannot be reached (default: say so loudly, pass)
//
// Exit codes: 0 clean (or only allow-listed advisories), 1 advisories to fix, 2 a broken allow-list or unreadable
// audit output, 3 the advisory endpoint could not be reached with --require-endpoint.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    input: { type: 'string' },
    allowlist: { type: 'string', default: join(root, 'audit-allowlist.json') },
    'require-endpoint': { type: 'boolean', default: false },
  },
});
const BLOCKING = new Set(['high', 'critical']);

/** The allow-list: [{ id: "GHSA-…", package, reason, expires? }]; an entry without a reason is refused. */
function readAllowlist(file) {
  const entries = JSON.parse(readFileSync(file, 'utf8'));
  if (!Array.isArray(entries)) throw new Error(`${file}: expected an array of {id, package, reason}`);
  const today = new Date().toISOString().slice(0, 10);
  return entries.map((entry, i) => {
    const where = `${file}[${i}]`;
    if (!entry || typeof entry.id !== 'string' || !/^GHSA(-[23456789cfghjmpqrvwx]{4}){3}$/.test(entry.id)) throw new Error(`${where}: id must be a GHSA advisory id`);
    if (typeof entry.package !== 'string' || entry.package === '') throw new Error(`${where}: package is required`);
    if (typeof entry.reason !== 'string' || entry.reason.trim().length < 20) throw new Error(`${where}: reason must say why ${entry.id} does not apply (20+ characters)`);
    if (entry.expires !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(entry.expires)) throw new Error(`${where}: expires must be YYYY-MM-DD`);
    return { ...entry, expired: entry.expires !== undefined && entry.expires < today };
  });
}

/** Every advisory in npm audit's report (format of npm 7+), once per (advisory, package). */
function advisories(report) {
  if (!report || typeof report !== 'object' || typeof report.vulnerabilities !== 'object') throw new Error('not the JSON of `npm audit --json` (npm 7 or later)');
  const found = new Map();
  for (const [pkg, vulnerability] of Object.entries(report.vulnerabilities)) {
    for (const via of vulnerability.via ?? []) {
      if (typeof via !== 'object' || via === null) continue; // a package that is vulnerable through another one
      const id = /GHSA(-[23456789cfghjmpqrvwx]{4}){3}/.exec(String(via.url ?? ''))?.[0] ?? `npm-${via.source}`;
      found.set(`${id} ${via.name ?? pkg}`, { id, package: via.name ?? pkg, severity: via.severity, title: via.title, url: via.url, range: via.range });
    }
  }
  return [...found.values()];
}

function runNpmAudit() {
  const result = spawnSync('npm', ['audit', '--json'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  let report;
  try {
    report = JSON.parse(result.stdout);
  } catch {
    return { unreachable: `npm audit printed no JSON (exit ${result.status}): ${result.stderr.trim().split('\n').at(-1) ?? ''}` };
  }
  // npm audit exits 1 when it finds anything; an endpoint failure answers an error object instead of a report.
  if (report.error || (report.message && !report.vulnerabilities)) return { unreachable: report.message || report.error?.summary || 'unknown error' };
  return { report };
}

let allowlist;
try {
  allowlist = readAllowlist(values.allowlist);
} catch (error) {
  console.error(`audit: ${error.message}`);
  process.exit(2);
}

let report;
if (values.input) {
  report = JSON.parse(readFileSync(values.input, 'utf8'));
} else {
  const run = runNpmAudit();
  if (run.unreachable) {
    console.error(`\n!! npm audit: NOT CHECKED. The registry's advisory endpoint could not be used: ${run.unreachable}\n`);
    process.exit(values['require-endpoint'] ? 3 : 0);
  }
  report = run.report;
}

let found;
try {
  found = advisories(report);
} catch (error) {
  console.error(`audit: ${error.message}`);
  process.exit(2);
}

const allowed = (a) => allowlist.find((e) => e.id === a.id && e.package === a.package && !e.expired);
const blocking = found.filter((a) => BLOCKING.has(a.severity) && !allowed(a));
const accepted = found.filter((a) => BLOCKING.has(a.severity) && allowed(a));
const below = found.filter((a) => !BLOCKING.has(a.severity));

for (const a of accepted) console.log(`allowed   ${a.severity.padEnd(8)} ${a.id} ${a.package}: ${allowed(a).reason}`);
for (const a of below) console.log(`noted     ${String(a.severity).padEnd(8)} ${a.id} ${a.package} ${a.range ?? ''}: ${a.title ?? ''}`);
for (const e of allowlist.filter((e) => e.expired)) console.log(`expired   allow-list entry ${e.id} ${e.package} (${e.expires}): decide again`);
for (const e of allowlist.filter((e) => !found.some((a) => a.id === e.id && a.package === e.package))) {
  console.log(`stale     allow-list entry ${e.id} ${e.package} matches nothing any more: remove it`);
}
for (const a of blocking) console.error(`BLOCKING  ${a.severity.padEnd(8)} ${a.id} ${a.package} ${a.range ?? ''}: ${a.title ?? ''} ${a.url ?? ''}`);
if (blocking.length > 0) {
  console.error(`\naudit: ${blocking.length} high or critical advisories. Upgrade, or add each to audit-allowlist.json with the reason it does not apply.`);
  process.exit(1);
}
console.log(`audit: no high or critical advisories to fix (${found.length} advisories in all, ${accepted.length} allowed)`);
