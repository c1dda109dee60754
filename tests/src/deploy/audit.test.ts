import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot } from '../support/processes';
import { tmpDataDir } from '../support/test-app';

const HIGH = 'GHSA-c2f3-g4h5-j6m7';
const CRITICAL = 'GHSA-pqrv-wx23-4567';
const MODERATE = 'GHSA-wwww-xxxx-2345';

/** The shape of `npm audit --json` (npm 7+): a direct advisory, one reached through another package, a moderate one. */
const report = {
  auditReportVersion: 2,
  vulnerabilities: {
    left: { name: 'left', severity: 'high', isDirect: false, via: [{ source: 1001, name: 'left', title: 'Prototype pollution', url: `https://github.com/advisories/${HIGH}`, severity: 'high', range: '<1.2.3' }] },
    wrapper: { name: 'wrapper', severity: 'high', isDirect: true, via: ['left'] },
    parser: { name: 'parser', severity: 'critical', isDirect: true, via: [{ source: 1002, name: 'parser', title: 'Code execution in a CLI flag', url: `https://github.com/advisories/${CRITICAL}`, severity: 'critical', range: '<2.0.0' }] },
    tiny: { name: 'tiny', severity: 'moderate', isDirect: false, via: [{ source: 1003, name: 'tiny', title: 'ReDoS', url: `https://github.com/advisories/${MODERATE}`, severity: 'moderate', range: '<0.5.0' }] },
  },
  metadata: {},
};

function audit(allowlist: unknown, input: unknown = report) {
  const dir = tmpDataDir();
  writeFileSync(join(dir, 'report.json'), JSON.stringify(input));
  writeFileSync(join(dir, 'allow.json'), JSON.stringify(allowlist));
  const run = spawnSync(process.execPath, ['scripts/audit.mjs', '--input', join(dir, 'report.json'), '--allowlist', join(dir, 'allow.json')], { cwd: repoRoot, encoding: 'utf8' });
  return { code: run.status, out: run.stdout + run.stderr };
}

const reason = 'parser is only run by the build on our own files, never on input from users';

describe('scripts/audit.mjs', () => {
  it('fails on high and critical advisories that are not allowed, naming each; moderate ones are only noted', () => {
    const run = audit([]);
    assert.equal(run.code, 1, run.out);
    assert.match(run.out, new RegExp(`BLOCKING +high +${HIGH} left`));
    assert.match(run.out, new RegExp(`BLOCKING +critical +${CRITICAL} parser`));
    assert.match(run.out, new RegExp(`noted +moderate +${MODERATE} tiny`));
  });

  it('passes when every blocking advisory is allowed with a reason; says which entries are stale', () => {
    const run = audit([
      { id: HIGH, package: 'left', reason: 'left is only used by the benchmarks, with constant input' },
      { id: CRITICAL, package: 'parser', reason },
      { id: 'GHSA-2222-3333-4444', package: 'gone', reason: 'an advisory of a package we no longer use' },
    ]);
    assert.equal(run.code, 0, run.out);
    assert.match(run.out, new RegExp(`allowed +critical +${CRITICAL} parser: ${reason}`));
    assert.match(run.out, /stale .*GHSA-2222-3333-4444 gone/);
  });

  it('an entry for another package, or past its expiry date, does not allow the advisory', () => {
    assert.equal(audit([{ id: HIGH, package: 'wrapper', reason }, { id: CRITICAL, package: 'parser', reason }]).code, 1);
    const expired = audit([{ id: HIGH, package: 'left', reason, expires: '2020-01-01' }, { id: CRITICAL, package: 'parser', reason }]);
    assert.equal(expired.code, 1);
    assert.match(expired.out, /expired +allow-list entry GHSA-c2f3-g4h5-j6m7/);
  });

  it('refuses an allow-list entry without a reason, and output that is not an audit report', () => {
    const noReason = audit([{ id: HIGH, package: 'left' }]);
    assert.equal(noReason.code, 2);
    assert.match(noReason.out, /reason must say why/);
    assert.equal(audit([{ id: 'CVE-2020-1234', package: 'left', reason }]).code, 2);
    assert.equal(audit([], { message: '405 Method Not Allowed' }).code, 2);
  });

  it("the repository's allow-list is valid", () => {
    const entries = JSON.parse(readFileSync(join(repoRoot, 'audit-allowlist.json'), 'utf8')) as unknown[];
    const run = audit(entries, { vulnerabilities: {} });
    assert.equal(run.code, 0, run.out);
  });
});
