import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { it } from 'node:test';
import { allProjections } from '@telemed/query';
// One process for every projection's spec: each file alone would load the whole query service again (seconds each).
import './access-log.spec';
import './account-standing.spec';
import './appointment-history.spec';
import './appointments.spec';
import './booking-rules.spec';
import './waitlist.spec';
import './wallet.spec';
import './blog-posts.spec';
import './clinical-records.spec';
import './clinical-retention.spec';
import './consents.spec';
import './contacts.spec';
import './consultations.spec';
import './doctors.spec';
import './institution-appointments.spec';
import './institutions.spec';
import './invitations.spec';
import './messages.spec';
import './patient-doctors.spec';
import './pending-reservations.spec';
import './record-storage.spec';
import './sessions.spec';
import './slots.spec';
import './users.spec';

/** DESIGN.md §10: one spec per projection. A projection registered without one fails here, by name. */
it('every registered projection has a spec in tests/src/projections, and each spec runs here', () => {
  const dir = new URL('.', import.meta.url);
  const specified = new Set<string>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.spec.ts'))) {
    assert.match(readFileSync(new URL(import.meta.url), 'utf8'), new RegExp(`import './${file.replace('.ts', '')}';`), `${file} is imported above`);
    for (const [, name] of readFileSync(new URL(file, dir), 'utf8').matchAll(/projectionSpec\('([a-z_]+)'\)/g)) specified.add(name!);
  }
  assert.deepEqual(
    allProjections.map((p) => p.name).filter((name) => !specified.has(name)),
    [],
  );
  assert.equal(specified.size, allProjections.length, 'no spec names a projection that is not registered');
});
