import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { erasureResponseSchema, streams } from '@telemed/contracts';
import { startTestApp, type TestApp } from '../support/test-app';
import { apiSpec, type ApiSpec } from '../support/api-spec';

/**
 * The erasure answer (issue 12) tells each person what is kept of them, not a list written for every kind of account:
 * a patient hears of their own clinical records, a doctor of the records they issued and of the professional facts the
 * log keeps in clear because they carry no name on their own.
 */
describe('the erasure answer depends on the kind of account', () => {
  let t: TestApp;
  let spec: ApiSpec;

  before(async () => {
    t = await startTestApp();
    spec = apiSpec(t);
  });
  after(() => t.close());

  /** Given a new account of this kind, when it erases itself: what the answer says is kept (and the erasure recorded). */
  const erase = async (kind: 'patient' | 'doctor' | 'admin') => {
    const user = await t.createUser(kind);
    const res = (await spec.when((http) => http.post('/api/v1/users/me/erasure').set(user.auth)))
      .expectStatus(200)
      .expectEvents([{ stream: streams.user(user.user_id), type: 'PersonalDataErased', data: { requested_by: 'self' } }])
      .expectReactions([]);
    return erasureResponseSchema.parse(res.body).kept.map((k) => `${k.what} | ${k.why}`);
  };

  it("a patient is told about their own clinical records, not about prescriptions they issued", async () => {
    const kept = await erase('patient');
    assert.ok(kept.some((k) => /^Your clinical records/.test(k)), 'their clinical records under the legal hold');
    assert.ok(!kept.some((k) => /issued|For a doctor|specialty/i.test(k)), `nothing for doctors: ${kept.join('\n')}`);
  });

  it('a doctor is told about the records they issued and the professional facts kept in clear, not about "your clinical records"', async () => {
    const kept = await erase('doctor');
    assert.ok(!kept.some((k) => /^Your clinical records/.test(k)), `not a patient's list: ${kept.join('\n')}`);
    assert.ok(kept.some((k) => /prescriptions and consultation notes you issued/.test(k)), 'the issued records under the hold');
    const facts = kept.find((k) => /specialty/.test(k));
    assert.ok(facts, 'the professional facts kept in clear');
    for (const fact of ['qualification', 'city', 'consultation fee', 'schedule', 'category', 'cover-picture link', 'digests']) assert.ok(facts.includes(fact), `names ${fact}`);
    assert.match(facts, /carry no name/, 'and why');
  });

  it('an administrator is told of neither clinical records nor professional facts', async () => {
    const kept = await erase('admin');
    assert.ok(!kept.some((k) => /clinical records|issued|specialty/i.test(k)), kept.join('\n'));
    assert.ok(kept.some((k) => /record of this erasure/.test(k)));
  });
});
